package bf

import (
	"context"
	"encoding/json"
	"strings"

	"github.com/syncgate/syncgate/dbsync"
	"github.com/syncgate/syncgate/dbsync/assets"
	"github.com/syncgate/syncgate/internal/answer"
	"github.com/syncgate/syncgate/internal/cardano"
)

// Asset is Blockfrost's asset.
type Asset struct {
	Asset                   string           `json:"asset"`
	PolicyID                string           `json:"policy_id"`
	AssetName               *string          `json:"asset_name"`
	Fingerprint             string           `json:"fingerprint"`
	Quantity                string           `json:"quantity"`
	InitialMintTxHash       string           `json:"initial_mint_tx_hash"`
	MintOrBurnCount         int64            `json:"mint_or_burn_count"`
	OnchainMetadata         map[string]any   `json:"onchain_metadata"`
	OnchainMetadataStandard *string          `json:"onchain_metadata_standard"`
	OnchainMetadataExtra    *string          `json:"onchain_metadata_extra"`
	Metadata                *RegistryContent `json:"metadata"`
}

// RegistryContent is the token registry's metadata as Blockfrost sends it
// (every field present).
type RegistryContent struct {
	Name        string  `json:"name"`
	Description string  `json:"description"`
	Ticker      *string `json:"ticker"`
	URL         *string `json:"url"`
	Logo        *string `json:"logo"`
	Decimals    *int64  `json:"decimals"`
}

// pages is the store's window of the page.
func (p Paging) assetsPage() assets.Page {
	return assets.Page{Offset: p.Offset(), Limit: p.Count, Desc: p.Desc}
}

// Asset answers /assets/{asset}: the sums of its mints and burns, its
// on-chain metadata (a CIP-68 reference datum that passes its standard,
// else its label-721 entry) and the token registry's metadata when the
// registry has it.
func (a *Answers) Asset(ctx context.Context, db *dbsync.DB, id cardano.AssetID) ([]byte, error) {
	return cached(ctx, a, db, "asset", []string{id.Unit()}, func(ctx context.Context, db *dbsync.DB) (Asset, error) {
		row, err := assets.Read(ctx, db, id)
		if err != nil {
			return Asset{}, notFound(err)
		}
		out := Asset{Asset: id.Unit(), PolicyID: id.PolicyHex(), Fingerprint: id.Fingerprint(),
			Quantity: row.Quantity, InitialMintTxHash: row.InitialMintTxHash, MintOrBurnCount: row.MintOrBurnCount}
		if len(id.Name) > 0 {
			out.AssetName = ptr(id.NameHex())
		}
		md, ok := onchainCIP68(row.CIP68Datum, id)
		if !ok {
			md = onchainCIP25(row.CIP25JSON, row.CIP25CBOR, id)
		}
		out.OnchainMetadata, out.OnchainMetadataStandard, out.OnchainMetadataExtra = md.Metadata, md.Standard, md.Extra
		if reg, _ := a.svc.RegistryMetadata(ctx, id.Unit()); reg != nil {
			d := reg.Decimals
			out.Metadata = &RegistryContent{Name: reg.Name, Description: reg.Description, Ticker: reg.Ticker,
				URL: reg.URL, Logo: reg.Logo, Decimals: &d}
		}
		return out, nil
	})
}

// Assets answers /assets: a page of every asset, in the order db-sync
// first saw them, with its quantity (0 once all burnt).
func (a *Answers) Assets(ctx context.Context, db *dbsync.DB, p Paging) ([]byte, error) {
	return cached(ctx, a, db, "assets", []string{p.key()}, func(ctx context.Context, db *dbsync.DB) ([]assets.Quantity, error) {
		return assets.List(ctx, db, p.assetsPage())
	})
}

// PolicyAssets answers /assets/policy/{policy_id}: a page of the policy's
// assets; a policy with none is a 404.
func (a *Answers) PolicyAssets(ctx context.Context, db *dbsync.DB, policy [28]byte, p Paging) ([]byte, error) {
	return cached(ctx, a, db, "policyassets", []string{hexOf(policy[:]), p.key()}, func(ctx context.Context, db *dbsync.DB) ([]assets.Quantity, error) {
		items, err := assets.Policy(ctx, db, policy[:], p.assetsPage())
		return items, notFound(err)
	})
}

// AssetAction is one item of Blockfrost's asset_history.
type AssetAction struct {
	TxHash string `json:"tx_hash"`
	Action string `json:"action"`
	Amount string `json:"amount"`
}

// AssetHistory answers /assets/{asset}/history: a page of the asset's
// mints and burns (amounts without their sign); an asset never minted is a
// 404.
func (a *Answers) AssetHistory(ctx context.Context, db *dbsync.DB, id cardano.AssetID, p Paging) ([]byte, error) {
	return cached(ctx, a, db, "assethistory", []string{id.Unit(), p.key()}, func(ctx context.Context, db *dbsync.DB) ([]AssetAction, error) {
		rows, err := assets.History(ctx, db, id, p.assetsPage())
		if err != nil {
			return nil, err
		}
		if len(rows) == 0 { // past the end, or never minted (a 404)
			if _, err := assets.Read(ctx, db, id); err != nil {
				return nil, notFound(err)
			}
		}
		out := make([]AssetAction, len(rows))
		for i, r := range rows {
			out[i] = AssetAction{TxHash: r.TxHash, Action: "minted", Amount: r.Quantity}
			if amount, burnt := strings.CutPrefix(r.Quantity, "-"); burnt {
				out[i].Action, out[i].Amount = "burned", amount
			}
		}
		return out, nil
	})
}

// AssetAddresses answers /assets/{asset}/addresses: a page of the
// addresses holding the asset in their unspent outputs, in the order of
// the oldest such output each still has; the list is read whole and
// stored for its pages (answer.DialectPage), kept across tips while no
// block creates or spends an output holding the asset (up to
// maxKeptHolders; a longer list is read once per tip). An asset never
// minted is a 404; one all burnt, an empty list.
func (a *Answers) AssetAddresses(ctx context.Context, db *dbsync.DB, id cardano.AssetID, p Paging) ([]byte, error) {
	about := answer.AssetSubject(id)
	list := answer.DialectList{Params: []string{"bf", "assetaddresses", id.Unit()}, About: &about, MaxKept: maxKeptHolders,
		Each: func(ctx context.Context, db *dbsync.DB, fn func([]byte) error) error {
			holders, err := assets.Holders(ctx, db, id)
			if err != nil {
				return err
			}
			for _, h := range holders {
				b, err := json.Marshal(h)
				if err != nil {
					return err
				}
				if err := fn(b); err != nil {
					return err
				}
			}
			return nil
		}}
	b, err := a.svc.DialectPage(ctx, db, list, answer.ListPage{Offset: p.Offset(), Count: p.Count, Desc: p.Desc})
	if err != nil || string(b) != string(emptyList) {
		return b, err
	}
	if _, err := a.Asset(ctx, db, id); err != nil {
		return nil, err
	}
	return b, nil
}

// maxKeptHolders bounds the holder lists kept across tips (about 140
// bytes an item in Redis: 14 MB at most, one copy while the asset sits
// still, where the list cached under the tip is a copy per tip).
const maxKeptHolders = 100_000

// assetTxs reads a page of the transactions with an output carrying the
// asset, within r; an empty page of an asset never minted is a 404.
func assetTxs(ctx context.Context, db *dbsync.DB, id cardano.AssetID, p Paging, r TxRange) ([]assets.Tx, error) {
	within, err := r.within(ctx, db)
	if err != nil {
		return nil, err
	}
	rows, err := assets.Txs(ctx, db, id, p.assetsPage(), within)
	if err == nil && len(rows) == 0 {
		_, err = assets.Read(ctx, db, id)
	}
	return rows, notFound(err)
}

// AssetTransactions answers /assets/{asset}/transactions: a page of the
// transactions with an output carrying the asset (Blockfrost's reading),
// within from/to when given.
func (a *Answers) AssetTransactions(ctx context.Context, db *dbsync.DB, id cardano.AssetID, p Paging, r TxRange) ([]byte, error) {
	params := []string{id.Unit(), p.key(), posKey(r.From), posKey(r.To)}
	return cached(ctx, a, db, "assettransactions", params, func(ctx context.Context, db *dbsync.DB) ([]AddressTransaction, error) {
		rows, err := assetTxs(ctx, db, id, p, r)
		out := make([]AddressTransaction, len(rows))
		for i, t := range rows {
			out[i] = AddressTransaction{TxHash: t.TxHash, TxIndex: t.TxIndex, BlockHeight: t.BlockHeight, BlockTime: t.BlockTime}
		}
		return out, err
	})
}

// AssetTxs answers the deprecated /assets/{asset}/txs: the same pages as
// transactions, as hashes.
func (a *Answers) AssetTxs(ctx context.Context, db *dbsync.DB, id cardano.AssetID, p Paging) ([]byte, error) {
	return cached(ctx, a, db, "assettxs", []string{id.Unit(), p.key()}, func(ctx context.Context, db *dbsync.DB) ([]string, error) {
		rows, err := assetTxs(ctx, db, id, p, TxRange{})
		out := make([]string, len(rows))
		for i, t := range rows {
			out[i] = t.TxHash
		}
		return out, err
	})
}

// AssetUTxO is one item of Blockfrost's asset_utxo_content.
type AssetUTxO struct {
	Address             string          `json:"address"`
	TxHash              string          `json:"tx_hash"`
	OutputIndex         int             `json:"output_index"`
	Amount              json.RawMessage `json:"amount"`
	Block               string          `json:"block"`
	BlockHeight         *int64          `json:"block_height"`
	BlockTime           int64           `json:"block_time"`
	DataHash            *string         `json:"data_hash"`
	InlineDatum         *string         `json:"inline_datum"`
	InlineDatumJSON     json.RawMessage `json:"inline_datum_json"`
	ReferenceScriptHash *string         `json:"reference_script_hash"`
}

// AssetUTxOs answers /assets/{asset}/utxos: a page of the unspent outputs
// holding the asset in chain order, the list read whole and stored under
// the tip for its pages (answer.DialectPage). An asset never minted is a
// 404; one all burnt, an empty list.
func (a *Answers) AssetUTxOs(ctx context.Context, db *dbsync.DB, id cardano.AssetID, p Paging) ([]byte, error) {
	list := answer.DialectList{Params: []string{"bf", "assetutxos", id.Unit()},
		Each: func(ctx context.Context, db *dbsync.DB, fn func([]byte) error) error {
			rows, err := assets.UTxOs(ctx, db, id)
			if err != nil {
				return err
			}
			for _, u := range rows {
				lovelace, err := json.Marshal(Amount{Unit: "lovelace", Quantity: u.Lovelace})
				if err != nil {
					return err
				}
				// Lovelace first, then the assets the statement listed.
				amount := append([]byte("["), lovelace...)
				if u.Assets == "[]" {
					amount = append(amount, ']')
				} else {
					amount = append(append(amount, ','), u.Assets[1:]...)
				}
				item := AssetUTxO{Address: u.Address, TxHash: u.TxHash, OutputIndex: u.OutputIndex, Amount: amount,
					Block: u.Block, BlockHeight: u.BlockHeight, BlockTime: u.BlockTime, DataHash: u.DataHash,
					InlineDatum: u.InlineDatum, InlineDatumJSON: json.RawMessage("null"), ReferenceScriptHash: u.ReferenceScriptHash}
				if u.InlineDatumJSON != nil {
					item.InlineDatumJSON = json.RawMessage(*u.InlineDatumJSON)
				}
				b, err := json.Marshal(item)
				if err != nil {
					return err
				}
				if err := fn(b); err != nil {
					return err
				}
			}
			return nil
		}}
	b, err := a.svc.DialectPage(ctx, db, list, answer.ListPage{Offset: p.Offset(), Count: p.Count, Desc: p.Desc})
	if err != nil || string(b) != string(emptyList) {
		return b, err
	}
	if _, err := a.Asset(ctx, db, id); err != nil {
		return nil, err
	}
	return b, nil
}
