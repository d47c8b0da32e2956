package bf

import (
	"bytes"
	"context"
	"encoding/json"

	"github.com/syncgate/syncgate/dbsync"
	"github.com/syncgate/syncgate/internal/answer"
	"github.com/syncgate/syncgate/internal/cardano"
)

// AddressUTxO is one item of Blockfrost's address_utxo_content.
type AddressUTxO struct {
	Address             string   `json:"address"`
	TxHash              string   `json:"tx_hash"`
	TxIndex             int      `json:"tx_index"` // deprecated: output_index
	OutputIndex         int      `json:"output_index"`
	Amount              []Amount `json:"amount"`
	Block               string   `json:"block"`
	DataHash            *string  `json:"data_hash"`
	InlineDatum         *string  `json:"inline_datum"`
	ReferenceScriptHash *string  `json:"reference_script_hash"`
}

func addressUTxOOf(u dbsync.UTxO) AddressUTxO {
	return AddressUTxO{Address: u.Address, TxHash: u.TxHash, TxIndex: u.OutputIndex, OutputIndex: u.OutputIndex,
		Amount: amounts(u.Value), Block: u.BlockHash, DataHash: u.DatumHash, InlineDatum: u.InlineDatum,
		ReferenceScriptHash: u.ReferenceScriptHash}
}

// emptyList is an empty page.
var emptyList = []byte("[]\n")

// AddressUTxOs answers /addresses/{address}/utxos (asset nil) and
// /addresses/{address}/utxos/{asset} (the outputs holding the asset): a
// page of the address's unspent outputs in chain order, from the same
// store as /v1's UTxO lists (with each output's inline datum and reference
// script), the whole list stored once for the pages cut from it and a
// short one kept across tips while no block touches the address
// (answer.DialectPage). An address never seen is a 404; one whose outputs
// are all spent, an empty list.
func (a *Answers) AddressUTxOs(ctx context.Context, db *dbsync.DB, ref AddressRef, asset *cardano.AssetID, p Paging) ([]byte, error) {
	params := []string{"bf", "addressutxos", ref.id()}
	if asset != nil {
		params = append(params, asset.Unit())
	}
	about := ref.subject()
	list := answer.DialectList{Params: params, About: &about,
		Each: func(ctx context.Context, db *dbsync.DB, fn func([]byte) error) error {
			each := func(chunk []dbsync.UTxO) error {
				for _, u := range chunk {
					if asset != nil && !holds(u.Value, *asset) {
						continue
					}
					b, err := json.Marshal(addressUTxOOf(u))
					if err != nil {
						return err
					}
					if err := fn(b); err != nil {
						return err
					}
				}
				return nil
			}
			if ref.Credential != nil {
				return db.EachUTxOWithScriptsByCredential(ctx, *ref.Credential, each)
			}
			return db.EachUTxOWithScriptsByAddress(ctx, ref.Address, each)
		}}
	b, err := a.svc.DialectPage(ctx, db, list, answer.ListPage{Offset: p.Offset(), Count: p.Count, Desc: p.Desc})
	if err != nil || !bytes.Equal(b, emptyList) {
		return b, err
	}
	// Nothing on this page: an address never seen is Blockfrost's 404.
	return b, seen(ctx, a, db, ref)
}

// holds reports whether a value holds some of the asset.
func holds(v dbsync.Value, asset cardano.AssetID) bool {
	policy, name := asset.PolicyHex(), asset.NameHex()
	for _, a := range v.Assets {
		if a.Policy == policy && a.Name == name {
			return true
		}
	}
	return false
}

// seen is nil when an output was ever paid to the address (as the
// request's server has it), else answer.ErrNotFound; the answer is
// cached under the tip, as a 404 is, since a wallet asks the page past
// its last at every refresh.
func seen(ctx context.Context, a *Answers, db *dbsync.DB, ref AddressRef) error {
	_, err := cached(ctx, a, db, "addressseen", []string{ref.id()}, func(ctx context.Context, db *dbsync.DB) (bool, error) {
		_, err := addressHead(ctx, db, ref)
		return err == nil, err
	})
	return err
}
