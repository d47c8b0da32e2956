package chaingen

import (
	"fmt"

	"github.com/blinklabs-io/gouroboros/ledger/common"
	"github.com/btcsuite/btcd/btcutil/bech32"
)

type assetQty struct {
	asset int32
	qty   uint64
}

type utxo struct {
	outID  int64
	txID   int64
	index  uint16
	value  uint64
	assets []assetQty
}

const (
	wByron = iota
	wBase
	wBaseScript    // native-script payment, key stake
	wBaseKeyScript // key payment, native-script stake (stake17…)
	wEnterprise
	wEnterpriseScript
	wPlutusBase       // Plutus payment + key stake (the DEX)
	wPlutusEnterprise // Plutus payment, no stake (CIP-68 reference lock)
	wPointer          // key payment, pointer stake reference (header type 4)
)

type wallet struct {
	addr      string
	payCred   []byte
	script    bool
	kind      uint8
	native    *nativeScript
	scriptID  int64
	stake     int32
	special   bool
	gov       bool // the governance desk: never among the funded wallets traffic draws from
	utxos     []utxo
	balance   uint64
	fundedPos int32
	txCount   int64
	lastTx    int64
	addrID    int64  // address.id in the address-table variant, once written
	raw       []byte // the address in binary form, once needed
}

func shelleyAddress(typ uint8, pay, stake []byte) string {
	a, err := common.NewAddressFromParts(typ, common.AddressNetworkMainnet, pay, stake)
	if err != nil {
		panic(fmt.Sprintf("chaingen: address type %d: %v", typ, err))
	}
	return a.String()
}

func byronAddress(root []byte) string {
	a, err := common.NewByronAddressFromParts(common.ByronAddressTypePubkey, root, common.ByronAddressAttributes{})
	if err != nil {
		panic(err)
	}
	return a.String()
}

func bech32Of(hrp string, b []byte) string {
	conv, err := bech32.ConvertBits(b, 8, 5, true)
	if err != nil {
		panic(err)
	}
	s, err := bech32.Encode(hrp, conv)
	if err != nil {
		panic(err)
	}
	return s
}

func (g *gen) newWallet(kind uint8, stake int32) int32 {
	w := wallet{kind: kind, stake: stake, fundedPos: -1}
	var stakeCred []byte
	if stake >= 0 {
		stakeCred = g.stakes[stake].cred
	}
	switch kind {
	case wByron:
		w.addr = byronAddress(g.bytes(28))
		w.stake = -1
	case wBase:
		w.payCred = g.bytes(28)
		w.addr = shelleyAddress(common.AddressTypeKeyKey, w.payCred, stakeCred)
	case wBaseKeyScript:
		w.payCred = g.bytes(28)
		w.addr = shelleyAddress(common.AddressTypeKeyScript, w.payCred, stakeCred)
	case wBaseScript:
		w.native = &nativeScript{keyHash: g.bytes(28)}
		w.payCred, w.script = w.native.hash(), true
		w.addr = shelleyAddress(common.AddressTypeScriptKey, w.payCred, stakeCred)
	case wEnterprise:
		w.payCred = g.bytes(28)
		w.addr = shelleyAddress(common.AddressTypeKeyNone, w.payCred, nil)
		w.stake = -1
	case wEnterpriseScript:
		w.native = &nativeScript{keyHash: g.bytes(28), before: epochFirstSlot(tipEpoch) + 10*shelleyEpochSlots}
		w.payCred, w.script = w.native.hash(), true
		w.addr = shelleyAddress(common.AddressTypeScriptNone, w.payCred, nil)
		w.stake = -1
	default:
		panic("chaingen: use newScriptWallet for Plutus addresses")
	}
	g.wallets = append(g.wallets, w)
	id := int32(len(g.wallets) - 1)
	if w.stake >= 0 {
		g.stakes[w.stake].wallets = append(g.stakes[w.stake].wallets, id)
	}
	return id
}

// newScriptWallet is an address locked by a Plutus script hash.
func (g *gen) newScriptWallet(hash []byte, stake int32) int32 {
	w := wallet{payCred: hash, script: true, stake: stake, fundedPos: -1, special: true}
	if stake >= 0 {
		w.kind = wPlutusBase
		w.addr = shelleyAddress(common.AddressTypeScriptKey, hash, g.stakes[stake].cred)
	} else {
		w.kind = wPlutusEnterprise
		w.addr = shelleyAddress(common.AddressTypeScriptNone, hash, nil)
	}
	g.wallets = append(g.wallets, w)
	id := int32(len(g.wallets) - 1)
	if stake >= 0 {
		g.stakes[stake].wallets = append(g.stakes[stake].wallets, id)
	}
	return id
}

func (g *gen) addUTxO(w int32, u utxo) {
	wl := &g.wallets[w]
	if len(wl.utxos) == 0 && !wl.gov {
		wl.fundedPos = int32(len(g.funded))
		g.funded = append(g.funded, w)
	}
	wl.utxos = append(wl.utxos, u)
	wl.balance += u.value
	if wl.stake >= 0 {
		k := &g.stakes[wl.stake]
		k.utxoBal += u.value
		k.utxos++
	}
	g.utxoTotal += u.value
}

// take removes the i-th UTxO of a wallet from the live set.
func (g *gen) take(w int32, i int) utxo {
	wl := &g.wallets[w]
	u := wl.utxos[i]
	last := len(wl.utxos) - 1
	wl.utxos[i] = wl.utxos[last]
	wl.utxos[last] = utxo{}
	wl.utxos = wl.utxos[:last]
	wl.balance -= u.value
	if wl.stake >= 0 {
		k := &g.stakes[wl.stake]
		k.utxoBal -= u.value
		k.utxos--
	}
	g.utxoTotal -= u.value
	if last == 0 && !wl.gov {
		pos := wl.fundedPos
		lastW := g.funded[len(g.funded)-1]
		g.funded[pos] = lastW
		g.wallets[lastW].fundedPos = pos
		g.funded = g.funded[:len(g.funded)-1]
		wl.fundedPos = -1
	}
	return u
}

// restore puts inputs of an abandoned transaction back.
func (g *gen) restore(ins []input) {
	for _, in := range ins {
		g.addUTxO(in.w, in.u)
	}
}

// findUTxO returns the position of a given output in its wallet, or -1.
func (g *gen) findUTxO(w int32, outID int64) int {
	for i, u := range g.wallets[w].utxos {
		if u.outID == outID {
			return i
		}
	}
	return -1
}

func (g *gen) touch(w int32, txID int64) {
	wl := &g.wallets[w]
	if wl.lastTx != txID {
		wl.lastTx = txID
		wl.txCount++
	}
}

// unresolvedPointer is a pointer that names no stake registration (a
// well-known mainnet example); db-sync leaves stake_address_id NULL for it,
// as it does for every pointer address from Conway on.
var unresolvedPointer = [3]uint64{2498243, 27, 3}

func pointerAddress(pay []byte, ptr [3]uint64) string {
	var b []byte
	for _, v := range ptr {
		b = appendVarUint(b, v)
	}
	return shelleyAddress(common.AddressTypeKeyPointer, pay, b)
}

// appendVarUint appends v as a pointer-address variable-length natural:
// big-endian groups of seven bits, the high bit set on all but the last.
func appendVarUint(b []byte, v uint64) []byte {
	var tmp [10]byte
	i := len(tmp) - 1
	tmp[i] = byte(v & 0x7f)
	for v >>= 7; v > 0; v >>= 7 {
		i--
		tmp[i] = byte(v&0x7f) | 0x80
	}
	return append(b, tmp[i:]...)
}

// setupCredentials creates a base wallet with its own stake key and an
// enterprise and a pointer wallet sharing its payment credential. They take
// no part in random traffic; credentialTasks moves funds between them.
func (g *gen) setupCredentials() {
	s := g.newStake(false)
	g.credBase = g.newWallet(wBase, s)
	g.wallets[g.credBase].special = true
	pay := g.wallets[g.credBase].payCred
	add := func(kind uint8, addr string) int32 {
		g.wallets = append(g.wallets, wallet{kind: kind, addr: addr, payCred: pay, stake: -1, fundedPos: -1, special: true})
		return int32(len(g.wallets) - 1)
	}
	g.credEnterprise = add(wEnterprise, shelleyAddress(common.AddressTypeKeyNone, pay, nil))
	g.credPointer = add(wPointer, pointerAddress(pay, unresolvedPointer))
	g.stakes[s].regEpoch = firstShelley + 1
}

func (g *gen) credentialTasks(e int, add func(float64, func() bool)) {
	send := func(from int32, outs ...output) func() bool {
		return func() bool {
			_, ok := g.pay(payReq{from: from, outs: outs})
			return ok
		}
	}
	switch e {
	case firstShelley + 1:
		add(0.50, send(g.credBase, output{w: g.credEnterprise, value: 60 * ada}, output{w: g.credPointer, value: 40 * ada}))
	case firstShelley + 4:
		add(0.50, send(g.credPointer, output{w: g.credEnterprise, value: 5 * ada}))
	case firstShelley + 6:
		add(0.50, send(g.credEnterprise, output{w: g.credPointer, value: 12 * ada}, output{w: g.credBase, value: 7 * ada}))
	case firstShelley + 8:
		add(0.50, send(g.credBase, output{w: g.credPointer, value: 3 * ada}, output{w: g.whale, value: 20 * ada}))
	}
}

// ensureAddress writes the wallet's address row when an output first
// carries it (address-table variant), as db-sync does through its address
// cache: the bech32 or base58 text, the raw bytes, and what tx_out carried
// itself in the core layout.
func (g *gen) ensureAddress(w int32, stakeID int64) int64 {
	wl := &g.wallets[w]
	if wl.addrID == 0 {
		g.ids.address++
		wl.addrID = g.ids.address
		if g.t.address.dry {
			g.t.address.end()
		} else {
			g.t.address.int(wl.addrID).text(wl.addr).bytea(rawAddress(wl.addr)).bool(wl.script).bytea(wl.payCred).
				ref(stakeID).end()
		}
	}
	return wl.addrID
}

// rawAddress is an address's binary form (header byte and credentials for
// Shelley addresses, the CBOR envelope for Byron ones), from its text.
func rawAddress(text string) []byte {
	a, err := common.NewAddress(text)
	if err != nil {
		panic(fmt.Sprintf("chaingen: address %s: %v", text, err))
	}
	raw, err := a.Bytes()
	if err != nil {
		panic(fmt.Sprintf("chaingen: address %s: %v", text, err))
	}
	return raw
}
