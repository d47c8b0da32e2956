// Package addresses reads what Blockfrost's address routes say of an
// address or a payment credential beyond its UTxOs, balance and history
// (which dbsync reads for /v1 too): whether it was ever seen, its stake
// address, what it ever received and sent, the block positions of its
// transactions, the on-chain metadata of the assets it holds, and tx-id
// bounds of block ranges. One statement per call.
package addresses

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"math/big"
	"sort"

	"github.com/lib/pq"

	"github.com/syncgate/syncgate/dbsync"
	"github.com/syncgate/syncgate/dbsync/engine"
	"github.com/syncgate/syncgate/internal/cardano"
)

var (
	sqlHead            = engine.Template("dbsync/addresses_head.sql", engine.AlwaysGeneric, nil)
	sqlCredentialSeen  = engine.Template("dbsync/addresses_credential_seen.sql", engine.AlwaysGeneric, nil)
	sqlTotalsAddress   = engine.Template("dbsync/addresses_totals.sql", engine.AlwaysGeneric, map[string]any{"Owner": "address"})
	sqlTotalsCred      = engine.Template("dbsync/addresses_totals.sql", engine.AlwaysGeneric, map[string]any{"Owner": "credential"})
	sqlTotalsStake     = engine.Template("dbsync/addresses_totals.sql", engine.AlwaysGeneric, map[string]any{"Owner": "stake"})
	sqlTxIndex         = engine.Fixed("dbsync/addresses_tx_index.sql")
	sqlTxBound         = engine.Fixed("dbsync/addresses_tx_bound.sql")
	sqlAssetMetadata   = engine.Template("dbsync/addresses_asset_metadata.sql", engine.AlwaysGeneric, nil)
	errNoAssetMetadata = errors.New("addresses: asset metadata rows do not match the assets asked for")
)

// Head is what an address's first output says of it.
type Head struct {
	Script       bool    `db:"script"`        // its payment part is a script
	StakeAddress *string `db:"stake_address"` // bech32, nil when none
}

// HeadOf returns the address's head, or dbsync.ErrNotFound when no output
// was ever paid to it.
func HeadOf(ctx context.Context, db *dbsync.DB, addr cardano.Address) (Head, error) {
	var h Head
	if err := db.Reader().Get(ctx, &h, db.SQL(sqlHead), addr.String()); err != nil {
		return Head{}, wrap("HeadOf", err)
	}
	return h, nil
}

// CredentialSeen reports whether any output was ever paid to an address
// of the payment credential.
func CredentialSeen(ctx context.Context, db *dbsync.DB, cred cardano.PaymentCredential) (bool, error) {
	var seen bool
	if err := db.Reader().Get(ctx, &seen, db.SQL(sqlCredentialSeen), cred[:]); err != nil {
		return false, wrap("CredentialSeen", err)
	}
	return seen, nil
}

// Totals is what an address (or a payment credential's addresses) ever
// received and sent, and its transaction count.
type Totals struct {
	Received, Sent dbsync.Value // Sent lists only the assets some of which were spent
	TxCount        int64
}

type totalsRow struct {
	Policy   *string `db:"policy"`
	Name     *string `db:"name"`
	Received string  `db:"received"`
	Sent     *string `db:"sent"`
	TxCount  *int64  `db:"tx_count"`
}

// TotalsOfAddress reads the address's totals (zero for an unseen one).
func TotalsOfAddress(ctx context.Context, db *dbsync.DB, addr cardano.Address) (Totals, error) {
	return totals(ctx, db, db.SQL(sqlTotalsAddress), addr.String())
}

// TotalsOfCredential reads the totals of every address of the credential.
func TotalsOfCredential(ctx context.Context, db *dbsync.DB, cred cardano.PaymentCredential) (Totals, error) {
	return totals(ctx, db, db.SQL(sqlTotalsCred), cred[:])
}

// TotalsOfStake reads the totals of every address carrying the stake key
// (zero for an unseen one).
func TotalsOfStake(ctx context.Context, db *dbsync.DB, key cardano.StakeKey) (Totals, error) {
	return totals(ctx, db, db.SQL(sqlTotalsStake), pq.ByteaArray(key.Candidates()))
}

func totals(ctx context.Context, db *dbsync.DB, q dbsync.Query, arg any) (Totals, error) {
	var rows []totalsRow
	if err := db.Reader().Select(ctx, &rows, q, arg); err != nil {
		return Totals{}, wrap("Totals", err)
	}
	t := Totals{Received: dbsync.Value{Lovelace: new(big.Int)}, Sent: dbsync.Value{Lovelace: new(big.Int)}}
	for _, r := range rows {
		received, err := engine.ParseQuantity(r.Received)
		if err != nil {
			return Totals{}, err
		}
		sent := new(big.Int)
		if r.Sent != nil {
			if sent, err = engine.ParseQuantity(*r.Sent); err != nil {
				return Totals{}, err
			}
		}
		if r.Policy == nil {
			t.Received.Lovelace, t.Sent.Lovelace = received, sent
			if r.TxCount != nil {
				t.TxCount = *r.TxCount
			}
			continue
		}
		t.Received.Assets = append(t.Received.Assets, dbsync.AssetQuantity{Policy: *r.Policy, Name: *r.Name, Quantity: received})
		if r.Sent != nil {
			t.Sent.Assets = append(t.Sent.Assets, dbsync.AssetQuantity{Policy: *r.Policy, Name: *r.Name, Quantity: sent})
		}
	}
	sortAssets(t.Received.Assets)
	sortAssets(t.Sent.Assets)
	return t, nil
}

// sortAssets puts assets by policy, then name (hex keeps byte order).
func sortAssets(a []dbsync.AssetQuantity) {
	sort.Slice(a, func(i, j int) bool {
		return a[i].Policy < a[j].Policy || a[i].Policy == a[j].Policy && a[i].Name < a[j].Name
	})
}

// TxIndexes returns the position in its block of each transaction of refs
// (Blockfrost's tx_index), by id; a transaction whose id no longer names
// the same hash (a rollback between the page and this read) is left out.
func TxIndexes(ctx context.Context, db *dbsync.DB, refs []dbsync.TxRef) (map[int64]int, error) {
	ids := make([]int64, len(refs))
	hashes := make(map[int64]string, len(refs))
	for i, r := range refs {
		ids[i], hashes[r.ID] = r.ID, r.Hash
	}
	var rows []struct {
		ID    int64  `db:"id"`
		Hash  string `db:"hash"`
		Index int    `db:"block_index"`
	}
	if len(ids) > 0 {
		if err := db.Reader().Select(ctx, &rows, sqlTxIndex, pq.Array(ids)); err != nil {
			return nil, wrap("TxIndexes", err)
		}
	}
	out := make(map[int64]int, len(rows))
	for _, r := range rows {
		if hashes[r.ID] == r.Hash {
			out[r.ID] = r.Index
		}
	}
	return out, nil
}

// TxBound is the id of the oldest transaction at or after position index
// of block number block; ok is false when there is none (after the tip).
func TxBound(ctx context.Context, db *dbsync.DB, block int64, index int) (id int64, ok bool, err error) {
	var n sql.NullInt64
	if err := db.Reader().Get(ctx, &n, sqlTxBound, block, index); err != nil {
		return 0, false, wrap("TxBound", err)
	}
	return n.Int64, n.Valid, nil
}

// AssetMetadata is what says whether an asset carries on-chain metadata:
// its latest mint's label 721 (CIP25) and, for a CIP-68 user token, its
// reference NFT's current datum (CIP68), each db-sync's JSON or nil.
type AssetMetadata struct {
	CIP25, CIP68 []byte
}

// AssetsMetadata reads the metadata sources of each asset, in order.
func AssetsMetadata(ctx context.Context, db *dbsync.DB, assets []cardano.AssetID) ([]AssetMetadata, error) {
	out := make([]AssetMetadata, len(assets))
	if len(assets) == 0 {
		return out, nil
	}
	policies, names, refs := make([][]byte, len(assets)), make([][]byte, len(assets)), make([][]byte, len(assets))
	cip68 := make([]bool, len(assets))
	for i, a := range assets {
		policies[i], names[i] = a.Policy[:], a.Name
		if ref, ok := a.CIP68Reference(); ok {
			refs[i], cip68[i] = ref.Name, true
		}
	}
	var rows []struct {
		Ord   int            `db:"ord"`
		CIP25 sql.NullString `db:"cip25"`
		CIP68 sql.NullString `db:"cip68"`
	}
	err := db.Reader().Select(ctx, &rows, db.SQL(sqlAssetMetadata), pq.ByteaArray(policies), pq.ByteaArray(names), pq.ByteaArray(refs), pq.BoolArray(cip68))
	if err != nil {
		return nil, wrap("AssetsMetadata", err)
	}
	if len(rows) != len(assets) {
		return nil, errNoAssetMetadata
	}
	for _, r := range rows {
		if r.Ord < 1 || r.Ord > len(out) {
			return nil, errNoAssetMetadata
		}
		if r.CIP25.Valid {
			out[r.Ord-1].CIP25 = []byte(r.CIP25.String)
		}
		if r.CIP68.Valid {
			out[r.Ord-1].CIP68 = []byte(r.CIP68.String)
		}
	}
	return out, nil
}

// wrap classifies a store error (ErrNotFound for no row) and names the call.
func wrap(call string, err error) error {
	err = engine.Classify(err)
	if errors.Is(err, dbsync.ErrNotFound) {
		return dbsync.ErrNotFound
	}
	return fmt.Errorf("addresses.%s: %w", call, err)
}
