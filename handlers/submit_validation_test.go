package handlers

import (
	"context"
	"encoding/hex"
	"github.com/syncgate/syncgate/internal/cardano"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/fxamacker/cbor/v2"
	"golang.org/x/crypto/blake2b"

	"github.com/syncgate/syncgate/config"
	"github.com/syncgate/syncgate/dbsync"
	"github.com/syncgate/syncgate/internal/devtools/chaingen"
	"github.com/syncgate/syncgate/internal/devtools/testdb"
	"github.com/syncgate/syncgate/node"
	"github.com/syncgate/syncgate/node/nodetest"
)

// submitOutput is an output reference of the seeded chain.
type submitOutput struct {
	hash  string
	index uint32
}

func (o submitOutput) String() string { return o.hash + "#" + strconv.FormatUint(uint64(o.index), 10) }

func mustMarshal(v any) []byte {
	b, err := cbor.Marshal(v)
	if err != nil {
		panic(err)
	}
	return b
}

// conwayTxSpending builds a minimal Conway transaction spending inputs in
// this order: body {0: 258([[hash, index], ...]), 1: [], 2: fee}, an empty
// witness set, valid, no auxiliary data. It returns its hex and its id
// (blake2b-256 of the body bytes).
func conwayTxSpending(t *testing.T, inputs ...submitOutput) (txHex, txHash string) {
	t.Helper()
	ins := make([]any, len(inputs))
	for i, in := range inputs {
		h, err := hex.DecodeString(in.hash)
		if err != nil {
			t.Fatal(err)
		}
		ins[i] = []any{h, in.index}
	}
	body := mustMarshal(map[uint64]any{0: cbor.Tag{Number: 258, Content: ins}, 1: []any{}, 2: 170000})
	tx := mustMarshal([]any{cbor.RawMessage(body), map[uint64]any{}, true, nil})
	sum := blake2b.Sum256(body)
	return hex.EncodeToString(tx), hex.EncodeToString(sum[:])
}

// seededOutputs picks outputs of the chain by the mode's own record of
// spending, with plain queries independent of the one under test.
func seededOutputs(t *testing.T, db *dbsync.DB, mode chaingen.Mode, spent bool, n int) []submitOutput {
	t.Helper()
	cond := `EXISTS (SELECT 1 FROM tx_in i WHERE i.tx_out_id = o.tx_id AND i.tx_out_index = o.index)`
	if mode == chaingen.ModeConsumed {
		cond = `o.consumed_by_tx_id IS NOT NULL`
	}
	if !spent {
		cond = "NOT " + cond
	}
	var rows []struct {
		Hash  string `db:"hash"`
		Index uint32 `db:"index"`
	}
	q := `SELECT encode(t.hash, 'hex') AS hash, o.index FROM tx_out o JOIN tx t ON t.id = o.tx_id
	      WHERE ` + cond + ` ORDER BY o.id LIMIT $1`
	if err := db.Primary().Select(&rows, q, n); err != nil {
		t.Fatal(err)
	}
	if len(rows) < n {
		t.Fatalf("seeded %s chain: %d matching outputs, need %d", mode, len(rows), n)
	}
	out := make([]submitOutput, len(rows))
	for i, r := range rows {
		out[i] = submitOutput{hash: r.Hash, index: r.Index}
	}
	return out
}

// TestSubmitTxValidation: with skipValidation false (or absent) every input
// must be an unspent output of the caller network's db-sync; the first that
// is not, in the transaction's order, is named. Both db-sync modes.
func TestSubmitTxValidation(t *testing.T) {
	requireServices(t)
	mainnet, _ := cardano.NetworkByName("mainnet")
	for _, mode := range []chaingen.Mode{chaingen.ModeCore, chaingen.ModeConsumed} {
		t.Run(string(mode), func(t *testing.T) {
			dsn, _, drop, err := testdb.DBSync(mode, 2500)
			if err != nil {
				t.Fatalf("seed: %v", err)
			}
			t.Cleanup(drop)
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			db, err := dbsync.Open(ctx, config.NetworkConfig{Network: mainnet, DBSyncURL: dsn}, 10*time.Second)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(db.Close)
			n := nodetest.Start(t, mainnet.Magic)
			s := New(Deps{
				Networks:    map[string]*dbsync.DB{"mainnet": db},
				Credentials: submitCallers,
				Submitter:   node.NewSubmitter(map[string]string{"mainnet": n.Socket}, node.Options{}),
			})

			unspent := seededOutputs(t, db, mode, false, 2)
			spent := seededOutputs(t, db, mode, true, 1)[0]
			u0, u1 := unspent[0], unspent[1]
			missing := submitOutput{hash: strings.Repeat("ab", 32), index: 0}
			missingIndex := submitOutput{hash: u0.hash, index: 30000}
			const prefix = "Transaction input not found or already spent: "
			cases := []struct {
				name      string
				inputs    []submitOutput
				skip      any // nil: absent
				wantError string
			}{
				{"unspent inputs pass", []submitOutput{u0, u1}, false, ""},
				{"skipValidation absent means false", []submitOutput{u1}, nil, ""},
				{"skipValidation null means false", []submitOutput{u0}, "null", ""},
				{"spent input", []submitOutput{spent}, false, prefix + spent.String()},
				{"spent after unspent", []submitOutput{u0, spent}, nil, prefix + spent.String()},
				{"spent before missing", []submitOutput{u1, spent, missing}, false, prefix + spent.String()},
				{"missing before spent", []submitOutput{u0, missing, spent}, false, prefix + missing.String()},
				{"missing transaction", []submitOutput{missing}, false, prefix + missing.String()},
				{"missing output index", []submitOutput{u0, missingIndex}, false, prefix + missingIndex.String()},
				{"skipValidation forwards a spent input", []submitOutput{spent, missing}, true, ""},
			}
			for _, tc := range cases {
				t.Run(tc.name, func(t *testing.T) {
					txHex, txHash := conwayTxSpending(t, tc.inputs...)
					body := submitJSON(txHex, tc.skip)
					if tc.skip == "null" {
						body = `{"tx":"` + txHex + `","skipValidation":null}`
					}
					before := len(n.Received())
					code, b := submitPost(t, s.Handler(), submitKeyMainnet, body)
					if tc.wantError != "" {
						if code != 400 || b.Success || b.Error != tc.wantError {
							t.Fatalf("got %d %q, want 400 %q", code, b.Error, tc.wantError)
						}
						if len(n.Received()) != before {
							t.Error("a transaction that failed validation reached the node")
						}
						return
					}
					if code != 200 || b.Data == nil || b.Data.TxHash != txHash {
						t.Fatalf("got %d %+v, want 200 txHash %s", code, b, txHash)
					}
					if len(n.Received()) != before+1 {
						t.Error("the node did not receive the transaction")
					}
				})
			}
		})
	}
}
