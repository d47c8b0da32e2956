package bf

import (
	"bytes"
	"context"
	"encoding/hex"
	"encoding/json"

	"github.com/syncgate/syncgate/dbsync"
	"github.com/syncgate/syncgate/dbsync/scripts"
	"github.com/syncgate/syncgate/internal/answer"
)

// ScriptHash is a script's 28-byte hash ({script_hash}).
type ScriptHash [28]byte

// DatumHash is a datum's 32-byte hash ({datum_hash}).
type DatumHash [32]byte

// ParseScriptHash reads 56 hex characters (either case).
func ParseScriptHash(s string) (h ScriptHash, ok bool) { return h, decodeHex(h[:], s) }

// ParseDatumHash reads 64 hex characters (either case).
func ParseDatumHash(s string) (h DatumHash, ok bool) { return h, decodeHex(h[:], s) }

// decodeHex fills dst from exactly 2*len(dst) hex characters.
func decodeHex(dst []byte, s string) bool {
	if len(s) != 2*len(dst) {
		return false
	}
	n, err := hex.Decode(dst, []byte(s))
	return err == nil && n == len(dst)
}

func (h ScriptHash) String() string { return hex.EncodeToString(h[:]) }
func (h DatumHash) String() string  { return hex.EncodeToString(h[:]) }

// ScriptItem is one item of Blockfrost's scripts list.
type ScriptItem struct {
	ScriptHash string `json:"script_hash"`
}

// Scripts answers /scripts: a page of every script in chain order.
func (a *Answers) Scripts(ctx context.Context, db *dbsync.DB, p Paging) ([]byte, error) {
	return cached(ctx, a, db, "scripts", []string{p.key()}, func(ctx context.Context, db *dbsync.DB) ([]ScriptItem, error) {
		hashes, err := scripts.List(ctx, db, scripts.Page{Offset: p.Offset(), Limit: p.Count, Desc: p.Desc})
		items := make([]ScriptItem, len(hashes))
		for i, h := range hashes {
			items[i] = ScriptItem{ScriptHash: h}
		}
		return items, err
	})
}

// Script is Blockfrost's script.
type Script struct {
	ScriptHash     string `json:"script_hash"`
	Type           string `json:"type"`
	SerialisedSize *int64 `json:"serialised_size"`
}

// scriptType is db-sync's script type as Blockfrost names it: a
// Shelley-era native script (multisig) is a timelock without time locks.
func scriptType(t string) string {
	if t == "multisig" {
		return "timelock"
	}
	return t
}

// Script answers /scripts/{script_hash}.
func (a *Answers) Script(ctx context.Context, db *dbsync.DB, h ScriptHash) ([]byte, error) {
	return cached(ctx, a, db, "script", []string{h.String()}, func(ctx context.Context, db *dbsync.DB) (Script, error) {
		s, err := scripts.ByHash(ctx, db, h[:])
		return Script{ScriptHash: s.Hash, Type: scriptType(s.Type), SerialisedSize: s.SerialisedSize}, notFound(err)
	})
}

// ScriptJSON is Blockfrost's script_json: a native script's JSON, null
// for a Plutus script.
type ScriptJSON struct {
	JSON json.RawMessage `json:"json"`
}

// ScriptJSON answers /scripts/{script_hash}/json.
func (a *Answers) ScriptJSON(ctx context.Context, db *dbsync.DB, h ScriptHash) ([]byte, error) {
	return cached(ctx, a, db, "scriptjson", []string{h.String()}, func(ctx context.Context, db *dbsync.DB) (ScriptJSON, error) {
		s, err := scripts.ByHash(ctx, db, h[:])
		out := ScriptJSON{JSON: json.RawMessage("null")}
		if s.JSON != nil {
			out.JSON = json.RawMessage(*s.JSON)
		}
		return out, notFound(err)
	})
}

// ScriptCBOR is Blockfrost's script_cbor: the script's CBOR (hex) as
// db-sync stores it, null when it stores none (native scripts).
type ScriptCBOR struct {
	CBOR *string `json:"cbor"`
}

// ScriptCBOR answers /scripts/{script_hash}/cbor.
func (a *Answers) ScriptCBOR(ctx context.Context, db *dbsync.DB, h ScriptHash) ([]byte, error) {
	return cached(ctx, a, db, "scriptcbor", []string{h.String()}, func(ctx context.Context, db *dbsync.DB) (ScriptCBOR, error) {
		s, err := scripts.ByHash(ctx, db, h[:])
		return ScriptCBOR{CBOR: s.CBOR}, notFound(err)
	})
}

// ScriptRedeemer is one item of Blockfrost's script_redeemers.
type ScriptRedeemer struct {
	TxHash           string `json:"tx_hash"`
	TxIndex          int64  `json:"tx_index"`
	Purpose          string `json:"purpose"`
	RedeemerDataHash string `json:"redeemer_data_hash"`
	DatumHash        string `json:"datum_hash"` // deprecated: redeemer_data_hash
	UnitMem          string `json:"unit_mem"`
	UnitSteps        string `json:"unit_steps"`
	Fee              string `json:"fee"`
}

// ScriptRedeemers answers /scripts/{script_hash}/redeemers: a page of the
// redeemers that ran the script, in chain order; an unknown script is a
// 404.
func (a *Answers) ScriptRedeemers(ctx context.Context, db *dbsync.DB, h ScriptHash, p Paging) ([]byte, error) {
	return cached(ctx, a, db, "scriptredeemers", []string{h.String(), p.key()}, func(ctx context.Context, db *dbsync.DB) ([]ScriptRedeemer, error) {
		rs, err := scripts.Redeemers(ctx, db, h[:], scripts.Page{Offset: p.Offset(), Limit: p.Count, Desc: p.Desc})
		if err != nil {
			return nil, err
		}
		if len(rs) == 0 {
			if _, err := scripts.ByHash(ctx, db, h[:]); err != nil {
				return nil, notFound(err)
			}
		}
		items := make([]ScriptRedeemer, len(rs))
		for i, r := range rs {
			items[i] = ScriptRedeemer{TxHash: r.TxHash, TxIndex: r.TxIndex, Purpose: r.Purpose,
				RedeemerDataHash: r.RedeemerDataHash, DatumHash: r.RedeemerDataHash,
				UnitMem: r.UnitMem, UnitSteps: r.UnitSteps, Fee: r.Fee}
		}
		return items, nil
	})
}

// ScriptUTxO is one item of Blockfrost's script_utxos.
type ScriptUTxO struct {
	Address             string   `json:"address"`
	TxHash              string   `json:"tx_hash"`
	OutputIndex         int      `json:"output_index"`
	Amount              []Amount `json:"amount"`
	Block               string   `json:"block"`
	DataHash            *string  `json:"data_hash"`
	InlineDatum         *string  `json:"inline_datum"`
	ReferenceScriptHash string   `json:"reference_script_hash"`
}

// ScriptUTxOs answers /scripts/{script_hash}/utxos: a page of the unspent
// outputs holding the script as their reference script, in chain order,
// read as the address UTxO pages are (answer.DialectPage, under the tip);
// an unknown script is a 404.
func (a *Answers) ScriptUTxOs(ctx context.Context, db *dbsync.DB, h ScriptHash, p Paging) ([]byte, error) {
	list := answer.DialectList{Params: []string{"bf", "scriptutxos", h.String()},
		Each: func(ctx context.Context, db *dbsync.DB, fn func([]byte) error) error {
			return db.EachUTxOByReferenceScript(ctx, h[:], func(chunk []dbsync.UTxO) error {
				for _, u := range chunk {
					b, err := json.Marshal(ScriptUTxO{Address: u.Address, TxHash: u.TxHash, OutputIndex: u.OutputIndex,
						Amount: amounts(u.Value), Block: u.BlockHash, DataHash: u.DatumHash, InlineDatum: u.InlineDatum,
						ReferenceScriptHash: h.String()})
					if err != nil {
						return err
					}
					if err := fn(b); err != nil {
						return err
					}
				}
				return nil
			})
		}}
	b, err := a.svc.DialectPage(ctx, db, list, answer.ListPage{Offset: p.Offset(), Count: p.Count, Desc: p.Desc})
	if err != nil || !bytes.Equal(b, emptyList) {
		return b, err
	}
	if _, err := a.Script(ctx, db, h); err != nil {
		return nil, err
	}
	return b, nil
}

// ScriptDatum is Blockfrost's script_datum.
type ScriptDatum struct {
	JSONValue json.RawMessage `json:"json_value"`
}

// Datum answers /scripts/datum/{datum_hash}: the datum's JSON as db-sync
// renders the Plutus data (a datum of an output or a witness set, else a
// redeemer's data).
func (a *Answers) Datum(ctx context.Context, db *dbsync.DB, h DatumHash) ([]byte, error) {
	return cached(ctx, a, db, "datum", []string{h.String()}, func(ctx context.Context, db *dbsync.DB) (ScriptDatum, error) {
		d, err := scripts.DatumByHash(ctx, db, h[:])
		if err != nil {
			return ScriptDatum{}, notFound(err)
		}
		if d.JSON == nil {
			// db-sync could not render it: the CBOR route still has it.
			return ScriptDatum{}, answer.ErrNotFound
		}
		return ScriptDatum{JSONValue: json.RawMessage(*d.JSON)}, nil
	})
}

// ScriptDatumCBOR is Blockfrost's script_datum_cbor.
type ScriptDatumCBOR struct {
	CBOR string `json:"cbor"`
}

// DatumCBOR answers /scripts/datum/{datum_hash}/cbor.
func (a *Answers) DatumCBOR(ctx context.Context, db *dbsync.DB, h DatumHash) ([]byte, error) {
	return cached(ctx, a, db, "datumcbor", []string{h.String()}, func(ctx context.Context, db *dbsync.DB) (ScriptDatumCBOR, error) {
		d, err := scripts.DatumByHash(ctx, db, h[:])
		return ScriptDatumCBOR{CBOR: d.CBOR}, notFound(err)
	})
}
