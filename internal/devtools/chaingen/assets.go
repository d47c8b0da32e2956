package chaingen

import (
	"encoding/base64"
	"encoding/hex"
	"fmt"

	"github.com/blinklabs-io/gouroboros/ledger/common"
)

type asset struct {
	policy      []byte
	name        []byte
	id          int64
	fingerprint string
	minted      uint64
	burned      uint64
	mints       int
	burns       int
}

var (
	spaceBudUnit  = "d5e6bf0500378d4f0da4e8dde6becec7621cd8cbf5cbb9b87013d4cc537061636542756433343132"
	berrySandUnit = "b863bc7369f46136ac1048adb2fa7dae3af944c3bbb2be2f216a8d4f426572727953616e64"
	optimUnit     = "add8604a36a46446dd22281473614c5b390afbc064ff1338516b19f58424fcf2617ba79f8089f860c2ce679d14345c9b153d0c14ea0481eaa0624751"
	emptyNameUnit = "1b6ed7ba4c9671b8b798af6eff7146396c7b04dc12a6463c6a29be85"
	hoskyPolicy   = "a0028f350aaabe0545fdcb56b039bfb08e4bb4d8c4d7c3c7d481c235"
)

func (g *gen) unitAsset(unit string) int32 {
	b := mustHex(unit)
	return g.asset(b[:28], b[28:])
}

func (g *gen) spaceBud() int32 { return g.unitAsset(spaceBudUnit) }

func (g *gen) berrySand() int32 { return g.unitAsset(berrySandUnit) }

// sgPolicy is a synthetic native policy owned by one of the issuers: its
// id is the real hash of its (timelock) script.
func (g *gen) sgPolicy(name string) *nativeScript {
	if g.policies == nil {
		g.policies = map[string]*nativeScript{}
	}
	if ns, ok := g.policies[name]; ok {
		return ns
	}
	// The hashed text is chain data (it fixes the policy id): it keeps the
	// package's old name so that a seed writes the same chain as before.
	ns := &nativeScript{keyHash: hashOf([]byte("syncgate fixture policy " + name))[:28],
		before: epochFirstSlot(tipEpoch) + 20*shelleyEpochSlots}
	g.policies[name] = ns
	return ns
}

func (g *gen) sgAsset(name string) int32 {
	return g.asset(g.sgPolicy(name).hash(), []byte(name))
}

func (g *gen) cip25Example(unit string) cip25Vector {
	for _, v := range g.vectors.CIP25 {
		if v.Asset == unit {
			return v
		}
	}
	panic("chaingen: no CIP-25 example " + unit)
}

// mint builds and commits a minting transaction from wallet w: minted
// tokens land in the change output unless outs carry them.
func (g *gen) mint(w int32, mints []mintEntry, outs []output, meta []metaEntry, scripts []*scriptSpec, pre []input) bool {
	_, ok := g.pay(payReq{from: w, pre: pre, outs: outs, mints: mints, meta: meta, scripts: scripts})
	if !ok {
		g.restore(pre)
	}
	return ok
}

func (g *gen) mintSimple(w int32, name string, qty uint64) func() bool {
	return func() bool {
		a := g.sgAsset(name)
		return g.mint(w, []mintEntry{{asset: a, qty: qty}}, nil, nil, []*scriptSpec{nativeSpec(g.sgPolicy(name))}, nil)
	}
}

func (g *gen) mintHosky() bool {
	a := g.asset(mustHex(hoskyPolicy), []byte("HOSKY"))
	return g.mint(g.hoskyIss, []mintEntry{{asset: a, qty: 1_000_000_000_000_000}}, nil, nil, nil, nil)
}

// takeAsset takes UTxOs of wallet w until they hold at least need of asset a.
func (g *gen) takeAsset(w int32, a int32, need uint64) ([]input, bool) {
	var got []input
	var have uint64
	for have < need {
		found := -1
		for i, u := range g.wallets[w].utxos {
			for _, x := range u.assets {
				if x.asset == a {
					found = i
					break
				}
			}
			if found >= 0 {
				break
			}
		}
		if found < 0 {
			g.restore(got)
			return nil, false
		}
		u := g.take(w, found)
		for _, x := range u.assets {
			if x.asset == a {
				have += x.qty
			}
		}
		got = append(got, input{w: w, u: u, redeemer: -1})
	}
	return got, true
}

func (g *gen) burnToken(w int32, a int32, qty uint64) func() bool {
	return func() bool {
		pre, ok := g.takeAsset(w, a, qty)
		if !ok {
			return false
		}
		var scripts []*scriptSpec
		for name, ns := range g.policies {
			if g.assets[a].policy != nil && string(ns.hash()) == string(g.assets[a].policy) {
				scripts = append(scripts, nativeSpec(g.policies[name]))
			}
		}
		return g.mint(w, []mintEntry{{asset: a, qty: qty, burn: true}}, nil, nil, scripts, pre)
	}
}

// sendToken sends qty of an asset from an issuer to n ordinary users.
func (g *gen) sendToken(w int32, a int32, qty uint64, n int) func() bool {
	return func() bool {
		pre, ok := g.takeAsset(w, a, qty)
		if !ok {
			return false
		}
		var outs []output
		left := qty
		for i := 0; i < n; i++ {
			q := qty / uint64(n)
			if i == n-1 {
				q = left
			}
			left -= q
			outs = append(outs, output{w: g.pickRecipient(w), value: minAda(1) + ada, assets: []assetQty{{asset: a, qty: q}}})
		}
		_, ok = g.pay(payReq{from: w, pre: pre, outs: outs})
		if !ok {
			g.restore(pre)
		}
		return ok
	}
}

// mintSpaceBud mints SpaceBud #3412 (and, the first time, BerrySand) with
// CIP-25 v1 metadata. The first mint carries an older metadata variant; it
// is burned and minted again with the real one, so "metadata of the latest
// positive mint" is what an API must return.
func (g *gen) mintSpaceBud(again bool) func() bool {
	return func() bool {
		sb := g.cip25Example(spaceBudUnit)
		sbMeta := jsonToMD(sb.Metadata)
		if !again {
			sbMeta = mdMap{{"image", "ipfs://QmPQWCUh9abUP2NQ2svMsRgcehez1VN6QGAcBCpuVQNdKp"}, {"name", "SpaceBud #3412 (first mint)"}}
		}
		label := mdMap{{sb.PolicyID, mdMap{{"SpaceBud3412", sbMeta}}}}
		mints := []mintEntry{{asset: g.spaceBud(), qty: 1}}
		if !again {
			bs := g.cip25Example(berrySandUnit)
			label = append(label, mdPair{bs.PolicyID, mdMap{{"BerrySand", jsonToMD(bs.Metadata)}}})
			mints = append(mints, mintEntry{asset: g.berrySand(), qty: 1})
		}
		return g.mint(g.nftMinter, mints, nil, []metaEntry{{721, label}}, nil, nil)
	}
}

func (g *gen) mintTestBudz() bool {
	ex := g.vectors.CIP25Preview
	if len(ex.BlockfrostResponse) == 0 {
		return false
	}
	a := g.asset(mustHex(ex.Derived.PolicyID), mustHex(ex.Derived.AssetNameHex))
	v := jsonToMD(ex.BlockfrostResponse[0].JSONMetadata)
	return g.mint(g.nftMinter, []mintEntry{{asset: a, qty: 1}}, []output{{w: g.pickRecipient(g.nftMinter), value: 2 * ada,
		assets: []assetQty{{asset: a, qty: 1}}}}, []metaEntry{{721, v}}, nil, nil)
}

// mintCIP25v2 mints two assets with CIP-25 version 2 metadata: policy and
// asset-name keys are bytes (db-sync renders them "0x…"), one asset name is
// empty, one image is a list of chunks.
func (g *gen) mintCIP25v2() bool {
	opt := g.cip25Example(optimUnit)
	emp := g.cip25Example(emptyNameUnit)
	oa := g.unitAsset(optimUnit)
	ea := g.unitAsset(emptyNameUnit)
	label := mdMap{
		{mustHex(opt.PolicyID), mdMap{{mustHex(*opt.AssetNameHex), jsonToMD(opt.Metadata)}}},
		{mustHex(emp.PolicyID), mdMap{{[]byte{}, jsonToMD(emp.Metadata)}}},
		{"version", int64(2)},
	}
	return g.mint(g.nftMinter, []mintEntry{{asset: oa, qty: 10}, {asset: ea, qty: 1_000_000}}, nil,
		[]metaEntry{{721, label}}, nil, nil)
}

// mintChunkedArt mints an NFT whose image (a data: URI), description and
// file source exceed 64 bytes and are written as lists of chunks.
func (g *gen) mintChunkedArt() bool {
	name := "SyncGateArt001"
	ns := g.sgPolicy(name)
	a := g.asset(ns.hash(), []byte(name))
	svg := `<svg xmlns="http://www.w3.org/2000/svg" width="64" height="64"><rect width="64" height="64" fill="#0033ad"/>` +
		`<circle cx="32" cy="32" r="20" fill="#fff"/><text x="32" y="37" font-size="12" text-anchor="middle">SG</text></svg>`
	uri := "data:image/svg+xml;base64," + base64.StdEncoding.EncodeToString([]byte(svg))
	desc := "A synthetic CIP-25 NFT whose image, description and file source are longer than the 64-byte metadata string limit."
	meta := mdMap{
		{"description", chunk64(desc)},
		{"files", []md{mdMap{{"mediaType", "image/svg+xml"}, {"name", "SyncGate Art #001"}, {"src", chunk64(uri)}}}},
		{"image", chunk64(uri)},
		{"mediaType", "image/svg+xml"},
		{"name", "SyncGate Art #001"},
	}
	label := mdMap{{hex.EncodeToString(ns.hash()), mdMap{{name, meta}}}}
	g.chunkedArt = a
	return g.mint(g.nftMinter, []mintEntry{{asset: a, qty: 1}}, nil, []metaEntry{{721, label}}, []*scriptSpec{nativeSpec(ns)}, nil)
}

var collectionNames = []string{"SpacePixel", "CardanoCat", "PoolPal", "LaceDragon", "EpochOwl", "SlotSnail", "GenesisGem", "LedgerLion"}

// mintRandom: an ordinary user mints an NFT collection (CIP-25 v1) or a
// fungible token under a fresh native policy.
func (g *gen) mintRandom() bool {
	w := g.pickSender()
	if w < 0 {
		return false
	}
	g.nRandomPolicies++
	ns := &nativeScript{keyHash: g.bytes(28), before: g.slot + uint64(1+g.intn(40))*shelleyEpochSlots}
	policy := ns.hash()
	var mints []mintEntry
	var meta []metaEntry
	if g.chance(0.6) {
		base := collectionNames[g.intn(len(collectionNames))]
		entries := mdMap{}
		for i := 0; i < 3+g.intn(6); i++ {
			name := fmt.Sprintf("%s%04d", base, g.nRandomPolicies*10+i)
			mints = append(mints, mintEntry{asset: g.asset(policy, []byte(name)), qty: 1})
			entries = append(entries, mdPair{name, mdMap{
				{"image", "ipfs://Qm" + base58Like(g, 44)},
				{"mediaType", "image/png"},
				{"name", fmt.Sprintf("%s #%04d", base, g.nRandomPolicies*10+i)},
			}})
		}
		meta = []metaEntry{{721, mdMap{{hex.EncodeToString(policy), entries}}}}
	} else {
		name := fmt.Sprintf("TOKEN%d", g.nRandomPolicies)
		mints = append(mints, mintEntry{asset: g.asset(policy, []byte(name)), qty: uint64(g.logUniform(1e6, 1e13))})
	}
	return g.mint(w, mints, nil, meta, []*scriptSpec{nativeSpec(ns)}, nil)
}

const b58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"

func base58Like(g *gen, n int) string {
	b := make([]byte, n)
	for i := range b {
		b[i] = b58[g.intn(len(b58))]
	}
	return string(b)
}

func (g *gen) airdropHosky() bool {
	a := g.asset(mustHex(hoskyPolicy), []byte("HOSKY"))
	n := 25
	var outs []output
	var total uint64
	for i := 0; i < n; i++ {
		q := uint64(g.logUniform(1e3, 1e9))
		total += q
		outs = append(outs, output{w: g.pickRecipient(g.hoskyIss), value: 1_500_000, assets: []assetQty{{asset: a, qty: q}}})
	}
	pre, ok := g.takeAsset(g.hoskyIss, a, total)
	if !ok {
		return false
	}
	_, ok = g.pay(payReq{from: g.hoskyIss, pre: pre, outs: outs})
	if !ok {
		g.restore(pre)
	}
	return ok
}

type cip68Token struct {
	key          string // datum vector it carries now
	initialDatum string
	label        string
	policy       []byte
	suffix       []byte
	ref, user    int32
	supply       uint64
	refOut       int64
	plutusPolicy []byte // script bytes when the policy is synthetic
	mintTx       int64
	updateTx     int64
}

var labelPrefix = map[string]string{"100": "000643b0", "222": "000de140", "333": "0014df10", "444": "001bc280"}

func (g *gen) cip68Tokens() []*cip68Token {
	if g.cip68 != nil {
		return g.cip68
	}
	pbgScript := hashOf([]byte("syncgate fixture PBG voucher policy")) // chain data: keep the text
	defs := []struct {
		key, initial, label, policy, suffix string
		supply                              uint64
	}{
		{"bf018", "nft1", "222", "96288f45458f51428187ded7b6dcb560b7ff74d9ad00fca13d5773a4", "426c6f636b66726f737423303138", 1},
		{"hosky10k", "hosky10k", "222", "df9337b73a041b1c45015e4b08ee1fed9a8e2a5b2a25d73c6fc2a35b", "484f534b592054656e4b2030303032", 1},
		{"fldt", "fldt", "333", "577f0b1342f8f8f4aed3388b80a8535812950c7a892495c0ecdf0f1e", "464c4454", 100_000_000_000_000},
		{"usdm", "usdm", "333", "c48cbb3d5e57ed56e276bc45f99ab39abe94e6cd7ac39fb402da47ad", "5553444d", 20_000_000_000_000},
		{"gnrc", "gnrc", "333", "67cee89d59ab5354ee22c8af0638224126aecc6210f9372a61f13a64", "474e5243", 1_000_000_000_000},
		{"pbg", "pbg", "444", hex.EncodeToString(scriptHash(2, pbgScript)), hex.EncodeToString([]byte("PBGVoucher89")), 100},
	}
	for _, d := range defs {
		t := &cip68Token{key: d.initial, initialDatum: d.initial, label: d.label, policy: mustHex(d.policy),
			suffix: mustHex(d.suffix), supply: d.supply}
		if d.key == "pbg" {
			t.plutusPolicy = pbgScript
		}
		t.ref = g.asset(t.policy, mustHex(labelPrefix["100"]+d.suffix))
		t.user = g.asset(t.policy, mustHex(labelPrefix[d.label]+d.suffix))
		g.cip68 = append(g.cip68, t)
	}
	return g.cip68
}

func (g *gen) datumSpecOf(key string) *datumSpec {
	d, ok := g.datums[key]
	if !ok {
		panic("chaingen: no CIP-68 datum vector " + key)
	}
	return &datumSpec{hash: d.hash, value: d.value, cbor: d.cbor}
}

var unitData = pdConstr{n: 0}

// mintCIP68 mints the reference NFT (to the lock script, with the inline
// datum) and the user token(s) (to the issuer) under a Plutus policy.
func (g *gen) mintCIP68(t *cip68Token) func() bool {
	return func() bool {
		d := g.datumSpecOf(t.initialDatum)
		outs := []output{{w: g.lock, value: 3 * ada, assets: []assetQty{{asset: t.ref, qty: 1}}, datum: d, inline: true}}
		pr := &plutusReq{
			redeemers:  []redeemerSpec{{purpose: "mint", index: 0, scriptHash: t.policy, data: unitData, mem: 420_000, steps: 160_000_000}},
			scriptSize: 1400,
		}
		var scripts []*scriptSpec
		if t.plutusPolicy != nil {
			scripts = []*scriptSpec{{hash: t.policy, typ: "plutusV2", bytes: t.plutusPolicy}}
			pr.scriptSize = len(t.plutusPolicy)
		}
		txID, ok := g.pay(payReq{from: g.issuer68, outs: outs, scripts: scripts, plutus: pr,
			mints: []mintEntry{{asset: t.ref, qty: 1}, {asset: t.user, qty: t.supply}}})
		if ok {
			t.refOut = g.lastOutIDs[0]
			t.mintTx = txID
		}
		return ok
	}
}

// distributeCIP68 sends user tokens from the issuer to ordinary users.
func (g *gen) distributeCIP68(i int) func() bool {
	return func() bool {
		if i >= len(g.cip68) {
			return false
		}
		t := g.cip68[i]
		have := uint64(0)
		for _, u := range g.wallets[g.issuer68].utxos {
			for _, a := range u.assets {
				if a.asset == t.user {
					have += a.qty
				}
			}
		}
		if have == 0 {
			return false
		}
		qty, n := have, 1
		if t.supply > 1 {
			qty, n = have/4, 3
		}
		return g.sendToken(g.issuer68, t.user, max(qty, uint64(n)), n)()
	}
}

// updateCIP68Datum re-sends the first token's reference NFT to the lock
// script with a new inline datum (spending the old reference UTxO with a
// redeemer): the current datum is the newer one.
func (g *gen) updateCIP68Datum() bool {
	if len(g.cip68) == 0 || g.cip68[0].refOut == 0 {
		return false
	}
	t := g.cip68[0]
	i := g.findUTxO(g.lock, t.refOut)
	if i < 0 {
		return false
	}
	u := g.take(g.lock, i)
	pre := []input{{w: g.lock, u: u, redeemer: 0}}
	d := g.datumSpecOf("bf018")
	outs := []output{{w: g.lock, value: u.value, assets: u.assets, datum: d, inline: true}}
	pr := &plutusReq{
		redeemers:  []redeemerSpec{{purpose: "spend", index: 0, scriptHash: g.lockHash, data: pdConstr{n: 1}, mem: 380_000, steps: 140_000_000}},
		scriptSize: len(g.lockScript),
	}
	txID, ok := g.pay(payReq{from: g.issuer68, pre: pre, outs: outs, plutus: pr,
		scripts: []*scriptSpec{{hash: g.lockHash, typ: "plutusV2", bytes: g.lockScript}}})
	if !ok {
		g.restore(pre)
		return false
	}
	t.refOut = g.lastOutIDs[0]
	t.key = "bf018"
	t.updateTx = txID
	g.cip68UpdateHash = g.curTxHash
	return true
}

func (g *gen) ensureAsset(a int32) int64 {
	as := &g.assets[a]
	if as.id == 0 {
		g.ids.multiAsset++
		as.id = g.ids.multiAsset
		g.t.multiAsset.int(as.id).bytea(as.policy).bytea(as.name).text(as.fingerprint).end()
	}
	return as.id
}

// asset returns the index of (policy, name), creating the entry.
func (g *gen) asset(policy, name []byte) int32 {
	key := string(policy) + string(name)
	if i, ok := g.assetBy[key]; ok {
		return i
	}
	g.assets = append(g.assets, asset{policy: policy, name: name,
		fingerprint: common.NewAssetFingerprint(policy, name).String()})
	i := int32(len(g.assets) - 1)
	g.assetBy[key] = i
	return i
}
