package scanner

import (
	"cmp"
	"encoding/hex"
	"maps"
	"math/big"
	"slices"
	"strings"

	"github.com/google/uuid"

	"github.com/syncgate/syncgate/dbsync"
	"github.com/syncgate/syncgate/internal/events"
)

// policyLen is a policy id's length in hex.
const policyLen = 56

type key struct{ kind, value string }

// txKeys is every watch item key a transaction carries: its hash, and the
// address, stake address, payment credential, asset units and policies of
// each output it created or spent.
func txKeys(t *dbsync.ScanTx, add func(key)) {
	add(key{events.KindTx, hex.EncodeToString(t.Hash)})
	for _, side := range [][]dbsync.Movement{t.Outputs, t.Inputs} {
		for i := range side {
			m := &side[i]
			add(key{events.KindAddress, m.Address})
			if m.StakeAddress != "" {
				add(key{events.KindStakeAddress, m.StakeAddress})
			}
			if m.PaymentCred != "" {
				add(key{events.KindPaymentCredential, m.PaymentCred})
			}
			for _, a := range m.Assets {
				add(key{events.KindAsset, a.Unit})
				if len(a.Unit) >= policyLen {
					add(key{events.KindPolicy, a.Unit[:policyLen]})
				}
			}
		}
	}
}

// keysOf is the distinct keys of every transaction of blocks, for
// tx.confirmed, added to keys.
func keysOf(blocks []dbsync.ScanBlock, keys *keySet) {
	for bi := range blocks {
		for ti := range blocks[bi].Txs {
			txKeys(&blocks[bi].Txs[ti], func(k key) { keys.add(k.kind, k.value, events.TypeTxConfirmed) })
		}
	}
}

// keySet is the distinct keys of a match query.
type keySet struct {
	seen map[events.MatchKey]bool
	list []events.MatchKey
}

func (s *keySet) add(kind, value, purpose string) {
	k := events.MatchKey{Kind: kind, Value: value, Purpose: purpose}
	if s.seen == nil {
		s.seen = map[events.MatchKey]bool{}
	}
	if !s.seen[k] {
		s.seen[k] = true
		s.list = append(s.list, k)
	}
}

// byKey indexes the matches of one event type by key.
func byKey(matches []events.Match, purpose string) map[key][]uuid.UUID {
	out := map[key][]uuid.UUID{}
	for _, m := range matches {
		if m.Purpose == purpose {
			k := key{m.Kind, m.Value}
			out[k] = append(out[k], m.WebhookID)
		}
	}
	return out
}

// txConfirmations builds the tx.confirmed events of one transaction for
// the matched items: one event per webhook whose items it touches, each
// item with what it received and sent.
func txConfirmations(b *dbsync.ScanBlock, t *dbsync.ScanTx, byKey map[key][]uuid.UUID, depth int, ref, tip *events.BlockRef) []events.NewEvent {
	if len(byKey) == 0 {
		return nil
	}
	items := map[uuid.UUID][]key{}
	seen := map[key]bool{}
	txKeys(t, func(k key) {
		if seen[k] {
			return
		}
		seen[k] = true
		for _, id := range byKey[k] {
			items[id] = append(items[id], k)
		}
	})
	var out []events.NewEvent
	for _, id := range sortedHooks(items) {
		ks := items[id]
		slices.SortFunc(ks, func(a, b key) int {
			return cmp.Or(cmp.Compare(a.kind, b.kind), cmp.Compare(a.value, b.value))
		})
		data := events.TxConfirmed{TxHash: hex.EncodeToString(t.Hash), Fee: t.Fee, Depth: depth,
			Confirmations: tip.Height - b.Height + 1, ValidContract: t.ValidContract}
		for _, k := range ks {
			data.Items = append(data.Items, events.ItemMovement{Kind: k.kind, Value: k.value,
				Received: sum(t.Outputs, k), Sent: sum(t.Inputs, k)})
		}
		out = append(out, events.NewEvent{WebhookID: id, Type: events.TypeTxConfirmed, TxHash: t.Hash,
			Block: ref, Tip: tip, Data: data})
	}
	return out
}

// sortedHooks is the webhooks of m in a fixed order (events of one
// transaction are decided in it).
func sortedHooks[V any](m map[uuid.UUID]V) []uuid.UUID {
	out := make([]uuid.UUID, 0, len(m))
	for id := range m {
		out = append(out, id)
	}
	slices.SortFunc(out, uuidLess)
	return out
}

// matches says whether output m carries item k. A transaction item
// matches every output of the transaction (the caller only asks about
// its own); a policy or an asset matches the outputs holding it.
func matches(m *dbsync.Movement, k key) bool {
	switch k.kind {
	case events.KindTx:
		return true
	case events.KindAddress:
		return m.Address == k.value
	case events.KindStakeAddress:
		return m.StakeAddress == k.value
	case events.KindPaymentCredential:
		return m.PaymentCred == k.value
	case events.KindAsset:
		return slices.ContainsFunc(m.Assets, func(a dbsync.MovedAsset) bool { return a.Unit == k.value })
	case events.KindPolicy:
		return slices.ContainsFunc(m.Assets, func(a dbsync.MovedAsset) bool { return strings.HasPrefix(a.Unit, k.value) })
	}
	return false
}

// sum is the value of the outputs of side that carry item k: lovelace and
// every asset they hold, as exact decimals (assets by unit).
func sum(side []dbsync.Movement, k key) events.Amount {
	lovelace := new(big.Int)
	assets := map[string]*big.Int{}
	for i := range side {
		m := &side[i]
		if !matches(m, k) {
			continue
		}
		addDecimal(lovelace, m.Lovelace)
		for _, a := range m.Assets {
			q := assets[a.Unit]
			if q == nil {
				q = new(big.Int)
				assets[a.Unit] = q
			}
			addDecimal(q, a.Quantity)
		}
	}
	out := events.Amount{Lovelace: lovelace.String(), Assets: []events.AssetAmount{}}
	for _, unit := range slices.Sorted(maps.Keys(assets)) {
		out.Assets = append(out.Assets, events.AssetAmount{Unit: unit, Quantity: assets[unit].String()})
	}
	return out
}

func addDecimal(to *big.Int, s string) {
	if v, ok := new(big.Int).SetString(s, 10); ok {
		to.Add(to, v)
	}
}
