package handlers

import (
	"math/big"

	"github.com/syncgate/syncgate/dbsync"
)

// valueJSON is the spec's value object (§2.3). Quantities are *big.Int so
// they encode as exact JSON integers at any size. Assets is the flat map
// ("<policy>.<namehex>": qty) or, grouped, {policy: {namehex: qty}}; an
// empty object when there are none.
type valueJSON struct {
	Lovelace *big.Int `json:"lovelace"`
	Assets   any      `json:"assets"`
}

func valueOf(v dbsync.Value, grouped bool) valueJSON {
	lovelace := v.Lovelace
	if lovelace == nil {
		lovelace = new(big.Int)
	}
	if grouped {
		return valueJSON{Lovelace: lovelace, Assets: groupedAssets(v.Assets)}
	}
	return valueJSON{Lovelace: lovelace, Assets: flatAssets(v.Assets)}
}

// flatAssets keys each quantity by "<policy>.<namehex>" (an empty name
// leaves a trailing dot, as in the asset identifier of spec §4.1).
func flatAssets(assets []dbsync.AssetQuantity) map[string]*big.Int {
	m := make(map[string]*big.Int, len(assets))
	for _, a := range assets {
		key := a.Policy + "." + a.Name
		if prev, ok := m[key]; ok { // never from db-sync, but never drop units
			m[key] = new(big.Int).Add(prev, a.Quantity)
			continue
		}
		m[key] = a.Quantity
	}
	return m
}

func groupedAssets(assets []dbsync.AssetQuantity) map[string]map[string]*big.Int {
	m := make(map[string]map[string]*big.Int)
	for _, a := range assets {
		names, ok := m[a.Policy]
		if !ok {
			names = make(map[string]*big.Int)
			m[a.Policy] = names
		}
		if prev, ok := names[a.Name]; ok {
			names[a.Name] = new(big.Int).Add(prev, a.Quantity)
			continue
		}
		names[a.Name] = a.Quantity
	}
	return m
}
