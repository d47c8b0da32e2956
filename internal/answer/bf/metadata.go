package bf

import (
	"context"
	"encoding/json"
	"math/big"
	"slices"
	"sync"

	"github.com/syncgate/syncgate/dbsync"
	"github.com/syncgate/syncgate/dbsync/metadata"
)

// MetadataJSON is one item of Blockfrost's tx_metadata_label_json.
type MetadataJSON struct {
	TxHash       string          `json:"tx_hash"`
	JSONMetadata json.RawMessage `json:"json_metadata"`
}

// MetadataCBOR is one item of Blockfrost's tx_metadata_label_cbor.
type MetadataCBOR struct {
	TxHash       string  `json:"tx_hash"`
	CBORMetadata *string `json:"cbor_metadata"` // deprecated: PostgreSQL's bytea text (\x…)
	Metadata     *string `json:"metadata"`
}

func (p Paging) metadataPage() metadata.Page {
	return metadata.Page{Offset: p.Offset(), Limit: p.Count, Desc: p.Desc}
}

// MetadataLabel answers /metadata/txs/labels/{label}: a page of the
// transactions carrying the label with its value as db-sync's JSON; a
// label no transaction carries is a 404.
func (a *Answers) MetadataLabel(ctx context.Context, db *dbsync.DB, label string, p Paging) ([]byte, error) {
	return cached(ctx, a, db, "metadatalabel", []string{label, p.key()}, func(ctx context.Context, db *dbsync.DB) ([]MetadataJSON, error) {
		rows, err := metadata.Label(ctx, db, label, p.metadataPage())
		out := make([]MetadataJSON, len(rows))
		for i, r := range rows {
			out[i] = MetadataJSON{TxHash: r.TxHash, JSONMetadata: json.RawMessage("null")}
			if r.JSON != nil {
				out[i].JSONMetadata = json.RawMessage(*r.JSON)
			}
		}
		return out, notFound(err)
	})
}

// MetadataLabelCBOR answers /metadata/txs/labels/{label}/cbor: the same
// pages with the CBOR of each transaction's map {label: value}.
func (a *Answers) MetadataLabelCBOR(ctx context.Context, db *dbsync.DB, label string, p Paging) ([]byte, error) {
	return cached(ctx, a, db, "metadatalabelcbor", []string{label, p.key()}, func(ctx context.Context, db *dbsync.DB) ([]MetadataCBOR, error) {
		rows, err := metadata.Label(ctx, db, label, p.metadataPage())
		out := make([]MetadataCBOR, len(rows))
		for i, r := range rows {
			out[i] = MetadataCBOR{TxHash: r.TxHash, CBORMetadata: ptr(`\x` + r.CBOR), Metadata: ptr(r.CBOR)}
		}
		return out, notFound(err)
	})
}

// MetadataLabelCount is one item of Blockfrost's tx_metadata_labels.
type MetadataLabelCount struct {
	Label string  `json:"label"`
	CIP10 *string `json:"cip10"`
	Count string  `json:"count"`
}

// cip10 is the CIP-10 registry's description of the labels Blockfrost
// names (its backend's list).
var cip10 = map[string]string{
	"87": "milkomeda.com - The protocol magic for the milkomeda protocol", "88": "milkomeda.com - the destination address in the sidechain",
	"309": "Proof of Existence record", "674": "CIP-0020 - Transaction message/comment metadata",
	"721": "CIP-0025 - NFT Metadata Standard", "777": "CIP-0027 - Royalties Standard",
	"1188": "paradiso.app marketplace metadata", "1189": "paradiso.app services metadata",
	"1870": "Open Badges v2.0 compliant metadata", "1967": "nut.link metadata oracles registry",
	"1968": "nut.link metadata oracles data points", "1988": "cardahub.io marketplace metadata",
	"1989": "cardahub.io services metadata", "6770": "fortunes.coconutpool.com fortune teller",
	"61284": "CIP-0015 - Catalyst registration", "61285": "CIP-0015 - Catalyst registration",
	"61286": "CIP-0015 - Catalyst registration",
}

// finalDepth is how deep a block is before the labels' counts are kept
// through it: the security parameter k, below which no rollback reaches.
const finalDepth = 2160

// labelMemo keeps, per network, the labels' counts over every transaction
// up to a final one (final: no rollback can change them); an answer adds
// the transactions after it up to the tip, in one snapshot with the final
// point's move (metadata.CountsAt). The first answer of a process counts
// the whole table once (one pass over sg_tx_metadata_key_tx_id); later
// ones read only what the chain added since.
type labelMemo struct {
	mu  sync.Mutex
	net map[string]*labelBase
}

type labelBase struct {
	upTo   int64 // the final transaction id the counts reach
	counts metadata.Counts
}

// MetadataLabels answers /metadata/txs/labels: every label in use with its
// entry count, in label order (numeric), paged; cached under the tip.
func (a *Answers) MetadataLabels(ctx context.Context, db *dbsync.DB, p Paging) ([]byte, error) {
	return cached(ctx, a, db, "metadatalabels", []string{p.key()}, func(ctx context.Context, db *dbsync.DB) ([]MetadataLabelCount, error) {
		all, err := a.labelCounts(ctx, db)
		if err != nil {
			return nil, err
		}
		labels := make([]string, 0, len(all))
		for l := range all {
			labels = append(labels, l)
		}
		slices.SortFunc(labels, compareDecimal)
		if p.Desc {
			slices.Reverse(labels)
		}
		out := []MetadataLabelCount{}
		for i := p.Offset(); i < len(labels) && len(out) < p.Count; i++ {
			item := MetadataLabelCount{Label: labels[i], Count: big.NewInt(all[labels[i]]).String()}
			if d, ok := cip10[labels[i]]; ok {
				item.CIP10 = ptr(d)
			}
			out = append(out, item)
		}
		return out, nil
	})
}

// labelCounts is every label's count at the snapshot's tip.
func (a *Answers) labelCounts(ctx context.Context, db *dbsync.DB) (metadata.Counts, error) {
	m := &a.labels
	m.mu.Lock()
	if m.net == nil {
		m.net = map[string]*labelBase{}
	}
	base := m.net[db.Network.Name]
	m.mu.Unlock()
	var from int64
	var counts metadata.Counts
	if base != nil {
		from, counts = base.upTo, base.counts
	}
	b, toFinal, toTip, err := metadata.CountsAt(ctx, db, finalDepth, from)
	if err != nil {
		return nil, err
	}
	if toFinal != nil {
		next := &labelBase{upTo: b.Final, counts: add(counts, toFinal)}
		m.mu.Lock()
		if cur := m.net[db.Network.Name]; cur == nil || cur.upTo < next.upTo {
			m.net[db.Network.Name] = next
		}
		m.mu.Unlock()
		counts = next.counts
	}
	return add(counts, toTip), nil
}

// add is a + b as a new map.
func add(a, b metadata.Counts) metadata.Counts {
	out := make(metadata.Counts, len(a)+len(b))
	for k, v := range a {
		out[k] = v
	}
	for k, v := range b {
		out[k] += v
	}
	return out
}

// compareDecimal orders decimal texts by their value.
func compareDecimal(x, y string) int {
	if len(x) != len(y) {
		return len(x) - len(y)
	}
	switch {
	case x < y:
		return -1
	case x > y:
		return 1
	}
	return 0
}
