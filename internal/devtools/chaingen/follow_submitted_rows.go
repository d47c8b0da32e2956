package chaingen

import (
	"context"
	"database/sql"
	"errors"

	"github.com/blinklabs-io/gouroboros/ledger/common"
)

// The rows a submitted transaction needs besides its own: the stake
// addresses and native assets its outputs name.

// receiver is the wallet of an output's address, with the stake_address
// row its stake credential needs (db-sync adds one for every base
// address's credential it meets).
func (f *Follower) receiver(ctx context.Context, addr common.Address) (int32, error) {
	w, err := f.walletFor(ctx, addr.String())
	if err != nil {
		return -1, err
	}
	g := f.g
	cred, ok := addr.StakeCredential()
	if g.wallets[w].stake >= 0 || !ok {
		return w, nil
	}
	k := stakeKey{cred: append([]byte(nil), cred.Credential[:]...), script: cred.CredType == common.CredentialTypeScriptHash,
		pool: -1, regEpoch: -1, drep: -1}
	_, raw := k.stakeAddress()
	if err := f.db.QueryRowContext(ctx, sqlFollowStakeID, raw).Scan(&k.id); err != nil && !errors.Is(err, sql.ErrNoRows) {
		return -1, followErr("stake address", err)
	}
	g.stakes = append(g.stakes, k)
	s := int32(len(g.stakes) - 1)
	g.wallets[w].stake = s
	g.stakes[s].wallets = append(g.stakes[s].wallets, w)
	if k.id == 0 {
		g.ensureStake(s)
		f.sub.newStakes = append(f.sub.newStakes, s)
	}
	return w, nil
}

// assetFor is the generator's entry of a native asset: the chain's
// multi_asset row when it has one, else a new one written with this block.
func (f *Follower) assetFor(ctx context.Context, policy [28]byte, name []byte) (int32, error) {
	g := f.g
	if a, ok := g.assetBy[string(policy[:])+string(name)]; ok {
		return a, nil
	}
	var id int64
	var fp string
	name = append([]byte{}, name...) // an empty name is '' in the database, never NULL
	err := f.db.QueryRowContext(ctx, sqlFollowAssetID, policy[:], name).Scan(&id, &fp)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return -1, followErr("multi_asset", err)
	}
	a := g.asset(append([]byte(nil), policy[:]...), name)
	if id > 0 {
		g.assets[a].id, g.assets[a].fingerprint = id, fp
	} else {
		g.ensureAsset(a)
		f.sub.newAssets = append(f.sub.newAssets, a)
	}
	return a, nil
}
