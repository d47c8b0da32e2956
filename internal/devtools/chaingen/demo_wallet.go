package chaingen

import (
	"context"
	"crypto/ed25519"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/blinklabs-io/gouroboros/ledger/common"
	"golang.org/x/crypto/blake2b"
)

// DemoWallet is a wallet whose key everyone knows, funded on the demo
// chain so that a client can build, sign and submit real transactions to
// the demo node: its enterprise address (what a wallet library makes of
// the bare payment key) holds ADA in several outputs and a native token.
// The key is derived from a fixed seed: the same on every demo chain, and
// worthless anywhere else. Never send it real funds.
type DemoWallet struct {
	Address        string `json:"address"`          // enterprise addr1v…
	PaymentKeyHash string `json:"payment_key_hash"` // hex
	// SigningKey is the key as bech32 (ed25519_sk1…), SigningKeyCBORHex as
	// cardano-cli writes it in a .skey file's cborHex (5820…).
	SigningKey        string `json:"signing_key"`
	SigningKeyCBORHex string `json:"signing_key_cbor_hex"`
	VerificationKey   string `json:"verification_key"` // ed25519_vk1…
	// Token is the native token the funding minted, under a policy of
	// the wallet's own key (PolicyScript, cardano-cli's JSON).
	Token        AssetRef `json:"token"`
	PolicyScript string   `json:"policy_script"`
	// UTxOs is how many unspent outputs the address held when the
	// manifest was written; FundingTx the transaction that funded it.
	UTxOs     int    `json:"utxos"`
	FundingTx string `json:"funding_tx,omitempty"`
}

// demoWalletSeed fixes the demo key (chain data: changing it moves the
// demo wallet).
const demoWalletSeed = "syncgate demo wallet"

// demoToken is the name of the token the funding mints.
const demoToken = "SGDEMO"

// DemoWalletKey is the demo wallet's signing key.
func DemoWalletKey() ed25519.PrivateKey {
	seed := blake2b.Sum256([]byte(demoWalletSeed))
	return ed25519.NewKeyFromSeed(seed[:])
}

// demoFunding is a funding the next block writes (addSubmitted).
type demoFunding struct {
	wallet *DemoWallet
	policy *nativeScript
	done   bool
}

// NewDemoWallet describes the demo wallet (its funding not included).
func NewDemoWallet() *DemoWallet {
	key := DemoWalletKey()
	pub := key.Public().(ed25519.PublicKey)
	pkh := common.Blake2b224Hash(pub)
	ns := demoPolicy(pkh[:])
	name := []byte(demoToken)
	return &DemoWallet{
		Address:           shelleyAddress(common.AddressTypeKeyNone, pkh[:], nil),
		PaymentKeyHash:    hex.EncodeToString(pkh[:]),
		SigningKey:        bech32Of("ed25519_sk", key.Seed()),
		SigningKeyCBORHex: "5820" + hex.EncodeToString(key.Seed()),
		VerificationKey:   bech32Of("ed25519_vk", pub),
		Token: AssetRef{Unit: hex.EncodeToString(ns.hash()) + "." + hex.EncodeToString(name),
			Fingerprint: common.NewAssetFingerprint(ns.hash(), name).String(),
			Note:        "minted by the demo wallet's funding, under a policy of its own key"},
		PolicyScript: ns.json(),
	}
}

func demoPolicy(pkh []byte) *nativeScript { return &nativeScript{keyHash: pkh} }

// SkeyFile is the signing key as cardano-cli writes a .skey file.
func (w *DemoWallet) SkeyFile() []byte {
	b, _ := json.MarshalIndent(map[string]string{"type": "PaymentSigningKeyShelley_ed25519",
		"description": "Payment Signing Key (syncgate demo wallet)", "cborHex": w.SigningKeyCBORHex}, "", "    ")
	return append(b, '\n')
}

// Amounts the funding pays the demo wallet: ADA-only outputs, then one
// with the token.
var demoFundingADA = []uint64{1000 * ada, 500 * ada, 250 * ada, 100 * ada, 50 * ada}

const (
	demoTokenOutputADA = 5 * ada
	demoTokenSupply    = 1_000_000
)

// FundDemoWallet makes sure the demo wallet has coins on the chain in db:
// when its address holds no unspent output it appends one block whose
// transaction, paid by the richest followed address (the manifest's whale),
// sends it five ADA outputs and one carrying 1,000,000 newly minted SGDEMO.
// It names the wallet in m (and moves m's tip to that block) when m is not
// nil. Run it while no other follower writes to db.
func FundDemoWallet(ctx context.Context, db *sql.DB, m *Manifest) (*DemoWallet, error) {
	dw := NewDemoWallet()
	f, err := NewFollower(ctx, db, FollowOptions{Manifest: m, TxsPerBlock: -1, Seed: 1})
	if err != nil {
		return nil, err
	}
	if f.v.Mode == ModeDisable {
		return nil, errors.New("chaingen: the demo wallet needs outputs (not the disable layout)")
	}
	n, err := f.countUTxOs(ctx, dw.Address)
	if err != nil {
		return nil, err
	}
	if n == 0 {
		pkh, _ := hex.DecodeString(dw.PaymentKeyHash)
		fund := &demoFunding{wallet: dw, policy: demoPolicy(pkh)}
		f.sub.fund = fund
		ev, err := f.AppendBlock(ctx)
		if err != nil {
			return nil, err
		}
		if !fund.done || len(ev.Txs) == 0 {
			return nil, errors.New("chaingen: the demo wallet's funding was not written")
		}
		dw.FundingTx = ev.Txs[0].Hash
		if m != nil {
			m.Tip = Tip{Slot: ev.Block.Slot, BlockNo: ev.Block.BlockNo, BlockHash: ev.Block.Hash, Epoch: ev.Block.Epoch,
				Time: ev.Block.Time}
			m.Counts.Txs++
			m.Counts.Blocks++
			m.Counts.Outputs += int64(len(ev.Txs[0].Outputs))
			m.Counts.TxOut += int64(len(ev.Txs[0].Outputs))
		}
		if n, err = f.countUTxOs(ctx, dw.Address); err != nil {
			return nil, err
		}
	}
	dw.UTxOs = n
	if m != nil {
		m.DemoWallet = dw
	}
	return dw, nil
}

// countUTxOs counts an address's unspent outputs (up to utxosPerWallet).
func (f *Follower) countUTxOs(ctx context.Context, addr string) (int, error) {
	rows, err := f.db.QueryContext(ctx, f.stmtUTxOs, addr, utxosPerWallet)
	if err != nil {
		return 0, followErr("demo wallet outputs", err)
	}
	defer rows.Close()
	n := 0
	for rows.Next() {
		n++
	}
	return n, rows.Err()
}

// writeFunding writes the demo wallet's funding transaction.
func (f *Follower) writeFunding(ctx context.Context) (FollowTx, error) {
	g, fund := f.g, f.sub.fund
	var from int32 = -1
	for _, w := range f.spendable {
		if from < 0 || g.wallets[w].balance > g.wallets[from].balance {
			from = w
		}
	}
	if from < 0 {
		return FollowTx{}, errors.New("chaingen: no followed address can fund the demo wallet")
	}
	addr, err := common.NewAddress(fund.wallet.Address)
	if err != nil {
		return FollowTx{}, followErr("demo wallet", err)
	}
	to, err := f.receiver(ctx, addr)
	if err != nil {
		return FollowTx{}, err
	}
	policy := fund.policy.hash()
	a, err := f.assetFor(ctx, [28]byte(policy), []byte(demoToken))
	if err != nil {
		return FollowTx{}, err
	}
	var scripts []*scriptSpec
	if len(f.sub.newAssets) > 0 { // the first mint: the policy's script row too
		scripts = append(scripts, nativeSpec(fund.policy))
	}
	var outs []output
	for _, v := range demoFundingADA {
		outs = append(outs, output{w: to, value: v})
	}
	outs = append(outs, output{w: to, value: demoTokenOutputADA, assets: []assetQty{{asset: a, qty: demoTokenSupply}}})
	meta := []metaEntry{{label: 674, v: mdMap{{k: "msg", v: []md{"syncgate demo wallet funding"}}}}}
	txID, ok := g.pay(payReq{from: from, outs: outs, mints: []mintEntry{{asset: a, qty: demoTokenSupply}},
		meta: meta, scripts: scripts, maxIns: 60})
	if !ok {
		return FollowTx{}, fmt.Errorf("chaingen: %s cannot pay the demo wallet's funding", g.wallets[from].addr)
	}
	return f.describe(txID, []int32{from, to}, false), nil
}
