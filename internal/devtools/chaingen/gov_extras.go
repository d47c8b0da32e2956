package chaingen

import (
	"encoding/hex"
	"fmt"
	"sort"
)

// Extras the governance desk sends on top of the quota, from the same
// separate random source: transactions carrying metadata under many labels
// and of every shape (CIP-20 messages, plain integers, bytes, nested maps
// and lists, a CIP-15 style registration), and an ADA Handle minted with
// its CIP-25 metadata and kept by a wallet of its own.

// adaHandlePolicy is ADA Handle's policy (legacy CIP-25 handles: the
// asset name is the handle's bytes).
const adaHandlePolicy = "f0ff48bbb7bbe9d59a40f1ce90e9e9d0ff5002ec48f232b49ca0fb9a"

// adaHandleName is the handle minted on the chain ($syncgate).
const adaHandleName = "syncgate"

// metadataShowcase is the metadata the desk's transactions carry, by
// epoch offset from the first Conway epoch.
func (g *gen) metadataShowcase(n int) []metaEntry {
	switch n % 6 {
	case 0:
		return []metaEntry{{674, mdMap{{"msg", []md{fmt.Sprintf("governance desk report %d", n), "all proposals are on chain"}}}}}
	case 1:
		return []metaEntry{{1, int64(42 + n)}, {2, g.gbytes(32)}}
	case 2:
		return []metaEntry{{3, mdMap{{"name", "syncgate"}, {"tags", []md{"governance", "metadata", int64(n)}},
			{"nested", mdMap{{"level", int64(2)}, {"values", []md{int64(1), int64(-2), int64(3)}}, {"raw", g.gbytes(8)}}}}}}
	case 3:
		return []metaEntry{{61284, mdMap{{int64(1), g.gbytes(32)}, {int64(2), g.gbytes(32)},
			{int64(3), g.rawAddr(g.gov.desk)}, {int64(4), int64(1000 + n)}}}, {61285, mdMap{{int64(1), g.gbytes(64)}}}}
	case 4:
		return []metaEntry{{1_000_000, []md{int64(-17), "text", g.gbytes(4), mdMap{{g.gbytes(2), "bytes key"}}}}}
	}
	return []metaEntry{{674, mdMap{{"msg", []md{"see label 3 for the details"}}}}, {3, mdMap{{"name", "follow-up"}}}}
}

// sendMetadata sends desk transaction n with its showcase metadata.
func (g *gen) sendMetadata(n int) {
	if g.gov.desk < 0 {
		return
	}
	if _, ok := g.pay(payReq{from: g.gov.desk, outs: []output{{w: g.gov.desk, value: 2 * ada}}, meta: g.metadataShowcase(n),
		plain: true}); ok {
		g.gov.txs++
	}
}

// mintHandle mints $syncgate to a wallet of its own, with CIP-25 metadata
// as ADA Handle's minting service writes it.
func (g *gen) mintHandle() {
	if g.gov.desk < 0 {
		return
	}
	owner := g.newWallet(wEnterprise, -1)
	g.wallets[owner].special, g.wallets[owner].gov = true, true
	a := g.asset(mustHex(adaHandlePolicy), []byte(adaHandleName))
	meta := mdMap{{adaHandlePolicy, mdMap{{adaHandleName, mdMap{{"name", "$" + adaHandleName},
		{"image", "ipfs://zb2rhdJGBBfbv1CEtHAeCj4YuLxm2C2sMYz7xxUDxsSHWcCYx"}, {"mediaType", "image/jpeg"},
		{"description", "The Handle Standard"}, {"website", "https://adahandle.com"},
		{"core", mdMap{{"og", int64(0)}, {"termsofuse", "https://adahandle.com/tou"}, {"handleEncoding", "utf-8"},
			{"prefix", "$"}, {"version", int64(0)}}}, {"augmentations", []md{}}}}}}}
	if _, ok := g.pay(payReq{from: g.gov.desk, mints: []mintEntry{{asset: a, qty: 1}},
		outs: []output{{w: owner, value: 2 * ada, assets: []assetQty{{asset: a, qty: 1}}}}, meta: []metaEntry{{721, meta}},
		plain: true}); ok {
		g.gov.txs++
		g.gov.handle, g.gov.handleOwner = a, owner
	}
}

// planExtras schedules epoch e's metadata transactions and the handle.
func (g *gen) planExtras(e int) {
	n := e - firstConway
	for i := 0; i < 4; i++ {
		k := 4*n + i
		g.govAt(e, 0.12+0.15*float64(i), func() { g.sendMetadata(k) })
	}
	if e == firstConway {
		g.govAt(e, 0.15, g.mintHandle)
	}
	if e == firstConway+1 {
		for i := 0; i < 3; i++ {
			g.govAt(e, 0.3+0.02*float64(i), func() { g.mintCollection(i) })
		}
	}
}

// collectionSize is how many assets the big policy's collection mints,
// in three transactions.
const collectionSize = 60

// mintCollection mints the i-th third of a large NFT collection under one
// native-script policy (the manifest's BigPolicy), CIP-25 metadata for
// each, kept by the desk.
func (g *gen) mintCollection(i int) {
	if g.gov.desk < 0 {
		return
	}
	if g.gov.collection == nil {
		g.gov.collection = &nativeScript{keyHash: g.gbytes(28)}
	}
	ns := g.gov.collection
	policy := ns.hash()
	var mints []mintEntry
	entries := mdMap{}
	for j := i * collectionSize / 3; j < (i+1)*collectionSize/3; j++ {
		name := fmt.Sprintf("SyncGateCollection%03d", j)
		mints = append(mints, mintEntry{asset: g.asset(policy, []byte(name)), qty: 1})
		entries = append(entries, mdPair{name, mdMap{{"name", fmt.Sprintf("SyncGate Collection #%d", j)},
			{"image", fmt.Sprintf("ipfs://QmSyncGateCollection%03d", j)}, {"mediaType", "image/png"}}})
	}
	meta := []metaEntry{{721, mdMap{{hex.EncodeToString(policy), entries}}}}
	if _, ok := g.pay(payReq{from: g.gov.desk, mints: mints, meta: meta, scripts: []*scriptSpec{nativeSpec(ns)}, plain: true}); ok {
		g.gov.txs++
	}
}

// HandleRef is the ADA Handle on the chain: Name without the $, Unit
// policy.hex(name), Address the one holding it.
type HandleRef struct {
	Name    string `json:"name"`
	Unit    string `json:"unit"`
	Address string `json:"address"`
}

// LabelRef is a metadata label and how many transactions carry it.
type LabelRef struct {
	Label uint64 `json:"label"`
	Txs   int    `json:"txs"`
}

// HeldAssetRef is an asset and the number of addresses holding it at the
// tip.
type HeldAssetRef struct {
	Unit    string `json:"unit"`
	Holders int    `json:"holders"`
}

// PolicyRef is a policy and how many assets it has.
type PolicyRef struct {
	Policy string `json:"policy"`
	Assets int    `json:"assets"`
}

// ExtraRefs name metadata, assets and the handle.
type ExtraRefs struct {
	// MetadataLabel: the label most transactions carry (CIP-20 674);
	// Labels: every label on the chain with its transaction count.
	MetadataLabel LabelRef   `json:"metadata_label"`
	Labels        []LabelRef `json:"labels"`
	// AdaHandle: $syncgate (CIP-25, policy f0ff48bb…), absent before the
	// first Conway epoch's desk minted it.
	AdaHandle *HandleRef `json:"ada_handle,omitempty"`
	// MostHeldAsset: the asset the most distinct addresses hold at the tip.
	MostHeldAsset HeldAssetRef `json:"most_held_asset"`
	// BigPolicy: the policy with the most assets.
	BigPolicy PolicyRef `json:"big_policy"`
}

func (g *gen) extraRefs() ExtraRefs {
	var r ExtraRefs
	for l, n := range g.stats.labelTxs {
		r.Labels = append(r.Labels, LabelRef{Label: l, Txs: n})
	}
	sort.Slice(r.Labels, func(i, j int) bool {
		if r.Labels[i].Txs != r.Labels[j].Txs {
			return r.Labels[i].Txs > r.Labels[j].Txs
		}
		return r.Labels[i].Label < r.Labels[j].Label
	})
	if len(r.Labels) > 0 {
		r.MetadataLabel = r.Labels[0]
	}
	if g.gov != nil && g.gov.handleOwner > 0 {
		r.AdaHandle = &HandleRef{Name: adaHandleName, Unit: unitOf(&g.assets[g.gov.handle]), Address: g.wallets[g.gov.handleOwner].addr}
	}
	holders := make([]int, len(g.assets))
	for w := range g.wallets {
		seen := map[int32]bool{}
		for _, u := range g.wallets[w].utxos {
			for _, a := range u.assets {
				if !seen[a.asset] {
					seen[a.asset] = true
					holders[a.asset]++
				}
			}
		}
	}
	best := -1
	for a, n := range holders {
		if best < 0 || n > holders[best] {
			best = a
		}
	}
	if best >= 0 {
		r.MostHeldAsset = HeldAssetRef{Unit: unitOf(&g.assets[best]), Holders: holders[best]}
	}
	per := map[string]int{}
	for i := range g.assets {
		per[string(g.assets[i].policy)]++
	}
	for p, n := range per {
		if n > r.BigPolicy.Assets || n == r.BigPolicy.Assets && hex.EncodeToString([]byte(p)) < r.BigPolicy.Policy {
			r.BigPolicy = PolicyRef{Policy: hex.EncodeToString([]byte(p)), Assets: n}
		}
	}
	return r
}
