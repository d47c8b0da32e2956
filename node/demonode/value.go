package demonode

import (
	"bytes"
	"cmp"
	"math/big"
	"slices"

	"github.com/fxamacker/cbor/v2"
)

// assetKey names a native asset.
type assetKey struct {
	policy [28]byte
	name   string
}

// value is lovelace and native assets, summed without overflow.
type value struct {
	coin   *big.Int
	assets map[assetKey]*big.Int
}

func newValue() value { return value{coin: new(big.Int), assets: map[assetKey]*big.Int{}} }

func (v value) addCoin(n *big.Int) { v.coin.Add(v.coin, n) }

func (v value) addAsset(k assetKey, q *big.Int) {
	if q.Sign() == 0 {
		return
	}
	cur := v.assets[k]
	if cur == nil {
		cur = new(big.Int)
		v.assets[k] = cur
	}
	cur.Add(cur, q)
	if cur.Sign() == 0 {
		delete(v.assets, k)
	}
}

// addOutput adds what an output of a submitted transaction holds.
func (v value) addOutput(o Output) {
	v.addCoin(new(big.Int).SetUint64(o.Lovelace))
	for _, a := range o.Assets {
		v.addAsset(assetKey{a.Policy, string(a.Name)}, new(big.Int).SetUint64(a.Quantity))
	}
}

func (v value) equal(o value) bool {
	if v.coin.Cmp(o.coin) != 0 || len(v.assets) != len(o.assets) {
		return false
	}
	for k, q := range v.assets {
		if p := o.assets[k]; p == nil || p.Cmp(q) != 0 {
			return false
		}
	}
	return true
}

// cbor is the value as the ledger encodes it: a coin, or [coin,
// {policy: {name: quantity}}] with keys in canonical order.
func (v value) cbor() cbor.RawMessage {
	coin, _ := cbor.Marshal(v.coin)
	if len(v.assets) == 0 {
		return coin
	}
	keys := make([]assetKey, 0, len(v.assets))
	for k := range v.assets {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b assetKey) int {
		if c := bytes.Compare(a.policy[:], b.policy[:]); c != 0 {
			return c
		}
		return cmp.Or(cmp.Compare(len(a.name), len(b.name)), cmp.Compare(a.name, b.name))
	})
	var policies int
	for i, k := range keys {
		if i == 0 || k.policy != keys[i-1].policy {
			policies++
		}
	}
	b := appendHead(nil, 4, 2)
	b = append(b, coin...)
	b = appendHead(b, 5, uint64(policies))
	for i := 0; i < len(keys); {
		j := i
		for j < len(keys) && keys[j].policy == keys[i].policy {
			j++
		}
		b = appendHead(b, 2, 28)
		b = append(b, keys[i].policy[:]...)
		b = appendHead(b, 5, uint64(j-i))
		for _, k := range keys[i:j] {
			b = appendHead(b, 2, uint64(len(k.name)))
			b = append(b, k.name...)
			q, _ := cbor.Marshal(v.assets[k])
			b = append(b, q...)
		}
		i = j
	}
	return b
}
