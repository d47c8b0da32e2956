package clientcheck_test

import (
	"crypto/ed25519"
	"encoding/hex"
	"strings"
	"testing"

	"github.com/blinklabs-io/gouroboros/ledger/common"
	"github.com/fxamacker/cbor/v2"
	"golang.org/x/crypto/blake2b"

	"github.com/syncgate/syncgate/internal/devtools/chaingen"
)

// bfInput names what the blockfrost-js script asks about (BF_INPUT).
type bfInput struct {
	Epoch        int        `json:"epoch"`
	Pool         string     `json:"pool"`
	Block        string     `json:"block"` // a busy block (several pages of transactions)
	BlockHeight  int64      `json:"blockHeight"`
	CborBlock    string     `json:"cborBlock"` // a block whose transactions have CBOR
	Slot         uint64     `json:"slot"`
	SlotEpoch    int        `json:"slotEpoch"`
	EpochSlot    uint64     `json:"epochSlot"`
	Txs          []string   `json:"txs"`
	Addresses    []string   `json:"addresses"`
	AssetAddress string     `json:"assetAddress"`
	Asset        string     `json:"asset"`
	Scripts      []string   `json:"scripts"`
	Datums       []string   `json:"datums"`
	Xpubs        []xpubCall `json:"xpubs"`
	Submit       submitTx   `json:"submit"`
	accountInput
}

type xpubCall struct {
	Xpub  string `json:"xpub"`
	Role  int    `json:"role"`
	Index int    `json:"index"`
}

// submitTx is a signed transaction for txSubmit, its id and the address
// its outputs pay.
type submitTx struct {
	CBOR    string `json:"cbor"`
	Hash    string `json:"hash"`
	Address string `json:"address"`
}

// accountXpub is an account public key with chain code (CIP-1852), the
// one Blockfrost's own tests derive from.
const accountXpub = "7ec9738746cb4708df52a455b43aa3fdee8955abaf37f68ffc79bb84fbf9e1b39d77e2deb9749faf890ff8326d350ed3fd0e4aa271b35cad063692af87102152"

// bfInput picks the entities with the test's own SQL: the manifest's busy
// epoch, block and addresses, and for each kind of transaction fact (a
// delegation, a withdrawal, a pool certificate, MIRs, metadata, redeemers,
// minting, CBOR…) the first transaction that has it.
func (s *stack) bfInput(t *testing.T, submit submitTx) bfInput {
	t.Helper()
	m := s.m
	in := bfInput{Epoch: m.Layout.BusyEpoch, Pool: m.Pools.Biggest.ID, Block: m.BusySlot.BlockHash, Slot: m.BusySlot.Slot,
		Addresses:    []string{m.Whale.Address, m.ScriptAddress.Address, m.ByronAddress.Address, s.wallet.Address},
		AssetAddress: m.AssetAddress.Address, Submit: submit,
		Xpubs: []xpubCall{{accountXpub, 0, 0}, {accountXpub, 1, 3}, {accountXpub, 2, 0}}}
	s.sql(t, &in.BlockHeight, `SELECT block_no FROM block WHERE hash = decode($1, 'hex')`, in.Block)
	s.sql(t, &in.CborBlock, `SELECT encode(b.hash, 'hex') FROM block b WHERE b.id = (SELECT t.block_id FROM tx t
		JOIN tx_cbor c ON c.tx_id = t.id JOIN block x ON x.id = t.block_id ORDER BY x.tx_count DESC, t.id LIMIT 1)`)
	var at struct {
		Epoch int    `db:"epoch_no"`
		Slot  uint64 `db:"epoch_slot_no"`
	}
	s.sql(t, &at, `SELECT epoch_no, epoch_slot_no FROM block WHERE epoch_no = $1 AND tx_count > 0 ORDER BY id LIMIT 1`, m.Layout.CurrentEpoch-1)
	in.SlotEpoch, in.EpochSlot = at.Epoch, at.Slot
	var firstOf []string
	s.sqlList(t, &firstOf, `SELECT encode(hash, 'hex') FROM tx WHERE id IN (
		(SELECT min(tx_id) FROM delegation), (SELECT min(tx_id) FROM withdrawal), (SELECT min(tx_id) FROM stake_registration),
		(SELECT min(tx_id) FROM stake_deregistration), (SELECT min(registered_tx_id) FROM pool_update),
		(SELECT min(announced_tx_id) FROM pool_retire), (SELECT min(tx_id) FROM tx_metadata),
		(SELECT min(tx_id) FROM redeemer), (SELECT max(tx_id) FROM redeemer), (SELECT min(tx_id) FROM ma_tx_mint),
		(SELECT min(tx_in_id) FROM reference_tx_in), (SELECT min(tx_id) FROM tx_cbor), (SELECT max(tx_id) FROM tx_cbor),
		(SELECT min(tx_id) FROM reserve), (SELECT min(tx_id) FROM treasury), (SELECT min(tx_id) FROM pot_transfer),
		(SELECT min(id) FROM tx WHERE NOT valid_contract), (SELECT min(id) FROM tx WHERE invalid_before IS NOT NULL))
		ORDER BY id`)
	seen := map[string]bool{}
	for _, h := range append([]string{m.Txs.Ordinary.Hash, m.Txs.MultiAsset.Hash, m.Txs.RequiredSigners.Hash,
		m.Txs.CIP68DatumUpdate.Hash, m.Txs.ParamProposal.Hash, s.wallet.FundingTx}, firstOf...) {
		if h != "" && !seen[h] {
			seen[h] = true
			in.Txs = append(in.Txs, h)
		}
	}
	s.sql(t, &in.Asset, `SELECT encode(a.policy, 'hex') || encode(a.name, 'hex') FROM tx_out o
		JOIN ma_tx_out mo ON mo.tx_out_id = o.id JOIN multi_asset a ON a.id = mo.ident
		WHERE o.address = $1 AND NOT EXISTS (SELECT 1 FROM tx_in i WHERE i.tx_out_id = o.tx_id AND i.tx_out_index = o.index)
		GROUP BY a.id ORDER BY count(*) DESC, a.id LIMIT 1`, in.AssetAddress)
	// A native script (JSON), the Plutus script with the most redeemers,
	// one with the fewest, the script most outputs hold as a reference
	// script, and the first and last datums.
	s.sqlList(t, &in.Scripts, `(SELECT encode(hash, 'hex') FROM script WHERE type = 'timelock' ORDER BY id LIMIT 1)
		UNION ALL (SELECT encode(s.hash, 'hex') FROM script s WHERE type <> 'timelock'
		ORDER BY (SELECT count(*) FROM redeemer r WHERE r.script_hash = s.hash) DESC, s.id LIMIT 1)
		UNION ALL (SELECT encode(s.hash, 'hex') FROM script s WHERE type <> 'timelock'
		ORDER BY (SELECT count(*) FROM redeemer r WHERE r.script_hash = s.hash), s.id LIMIT 1)
		UNION (SELECT encode(s.hash, 'hex') FROM script s JOIN tx_out o ON o.reference_script_id = s.id
		GROUP BY s.id ORDER BY count(*) DESC, s.id LIMIT 1)`)
	s.sqlList(t, &in.Datums, `SELECT encode(hash, 'hex') FROM datum WHERE id IN ((SELECT min(id) FROM datum), (SELECT max(id) FROM datum))`)
	in.accountInput = s.accountInput(t, in.Asset)
	return in
}

func (s *stack) sql(t *testing.T, dest any, query string, args ...any) {
	t.Helper()
	if err := s.raw.GetContext(t.Context(), dest, query, args...); err != nil {
		t.Fatalf("%v: %s", err, strings.Join(strings.Fields(query), " "))
	}
}

func (s *stack) sqlList(t *testing.T, dest any, query string, args ...any) {
	t.Helper()
	if err := s.raw.SelectContext(t.Context(), dest, query, args...); err != nil {
		t.Fatalf("%v: %s", err, strings.Join(strings.Fields(query), " "))
	}
}

// selfPayment is the demo wallet paying its 50 ADA output back to itself,
// signed with its key at the chain's minimum fee: built here, submitted
// by blockfrost-js's txSubmit.
func (s *stack) selfPayment(t *testing.T) submitTx {
	t.Helper()
	var in struct {
		Hash  []byte `db:"hash"`
		Index uint64 `db:"index"`
		Value uint64 `db:"value"`
	}
	s.sql(t, &in, `SELECT t.hash, o.index, o.value::bigint AS value FROM tx_out o JOIN tx t ON t.id = o.tx_id
		WHERE o.address = $1 AND o.value = 50000000 AND NOT EXISTS (SELECT 1 FROM ma_tx_out m WHERE m.tx_out_id = o.id)
		AND NOT EXISTS (SELECT 1 FROM tx_in i WHERE i.tx_out_id = o.tx_id AND i.tx_out_index = o.index) LIMIT 1`, s.wallet.Address)
	addr, err := common.NewAddress(s.wallet.Address)
	if err != nil {
		t.Fatal(err)
	}
	ab, _ := addr.Bytes()
	key := chaingen.DemoWalletKey()
	em, _ := cbor.CoreDetEncOptions().EncMode()
	build := func(fee uint64) ([]byte, string) {
		body, _ := em.Marshal(map[uint64]any{0: cbor.Tag{Number: 258, Content: []any{[]any{in.Hash, in.Index}}},
			1: []any{map[uint64]any{0: ab, 1: in.Value - fee}}, 2: fee})
		h := blake2b.Sum256(body)
		wit := map[uint64]any{0: []any{[]any{[]byte(key.Public().(ed25519.PublicKey)), ed25519.Sign(key, h[:])}}}
		raw, _ := em.Marshal([]any{cbor.RawMessage(body), wit, true, nil})
		return raw, hex.EncodeToString(h[:])
	}
	var a, b uint64
	s.sql(t, &a, `SELECT min_fee_a FROM epoch_param ORDER BY epoch_no DESC LIMIT 1`)
	s.sql(t, &b, `SELECT min_fee_b FROM epoch_param ORDER BY epoch_no DESC LIMIT 1`)
	raw, _ := build(200_000)
	raw, hash := build(a*uint64(len(raw)) + b)
	return submitTx{CBOR: hex.EncodeToString(raw), Hash: hash, Address: s.wallet.Address}
}
