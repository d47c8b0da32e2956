package dbsync_test

import (
	"github.com/syncgate/syncgate/internal/cardano"
	"math/big"
	"sort"
	"strings"
	"testing"

	"github.com/syncgate/syncgate/dbsync"
)

// sumUTxOs adds up UTxOs in Go: the balance endpoints must equal it.
func sumUTxOs(utxos []dbsync.UTxO) (lovelace *big.Int, assets map[string]*big.Int) {
	lovelace, assets = new(big.Int), map[string]*big.Int{}
	for _, u := range utxos {
		lovelace.Add(lovelace, u.Value.Lovelace)
		for _, a := range u.Value.Assets {
			k := a.Policy + "." + a.Name
			if assets[k] == nil {
				assets[k] = new(big.Int)
			}
			assets[k].Add(assets[k], a.Quantity)
		}
	}
	return lovelace, assets
}

func balanceLine(lovelace *big.Int, assets map[string]*big.Int) string {
	keys := make([]string, 0, len(assets))
	for k := range assets {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b strings.Builder
	b.WriteString(lovelace.String())
	for _, k := range keys {
		b.WriteString(" " + k + "=" + assets[k].String())
	}
	return b.String()
}

func valueLine(v dbsync.Value) string {
	assets := map[string]*big.Int{}
	for _, a := range v.Assets {
		assets[a.Policy+"."+a.Name] = a.Quantity
	}
	return balanceLine(v.Lovelace, assets)
}

// independentBalance sums unspent outputs matching where with plain SQL.
func independentBalance(t *testing.T, c *chain, where string, arg any) string {
	t.Helper()
	var lovelace string
	if err := c.raw.Get(&lovelace, `SELECT COALESCE(sum(o.value), 0)::text FROM tx_out o WHERE `+where+` AND `+unspentFilter(c), arg); err != nil {
		t.Fatal(err)
	}
	var rows []struct {
		Unit string `db:"unit"`
		Qty  string `db:"qty"`
	}
	if err := c.raw.Select(&rows, `SELECT encode(ma.policy, 'hex') || '.' || encode(ma.name, 'hex') AS unit, sum(m.quantity)::text AS qty
		FROM tx_out o JOIN ma_tx_out m ON m.tx_out_id = o.id JOIN multi_asset ma ON ma.id = m.ident
		WHERE `+where+` AND `+unspentFilter(c)+` GROUP BY 1`, arg); err != nil {
		t.Fatal(err)
	}
	l, _ := new(big.Int).SetString(lovelace, 10)
	assets := map[string]*big.Int{}
	for _, r := range rows {
		assets[r.Unit], _ = new(big.Int).SetString(r.Qty, 10)
	}
	return balanceLine(l, assets)
}

func TestBalanceByAddress(t *testing.T) {
	needChains(t)
	ctx := t.Context()
	for _, a := range append(samples.Addresses(), neverSeen) {
		var perMode []any
		for _, c := range chains {
			addr := mustAddress(t, a)
			got, err := c.db.BalanceByAddress(ctx, addr)
			if err != nil {
				t.Fatalf("%s %s: %v", c.mode, a, err)
			}
			utxos, err := c.db.UTxOsByAddress(ctx, addr)
			if err != nil {
				t.Fatal(err)
			}
			own := balanceLine(sumUTxOs(utxos))
			if valueLine(got) != own {
				t.Errorf("%s %s: balance %s, its own UTxOs sum to %s", c.mode, a, valueLine(got), own)
			}
			if want := independentBalance(t, c, "o.address = $1", a); valueLine(got) != want {
				t.Errorf("%s %s: balance %s, SQL sum %s", c.mode, a, valueLine(got), want)
			}
			perMode = append(perMode, got)
		}
		sameAcrossModes(t, "balance of "+a, perMode)
	}
	for _, c := range chains {
		got, err := c.db.BalanceByAddress(ctx, mustAddress(t, neverSeen))
		if err != nil || got.Lovelace == nil || got.Lovelace.Sign() != 0 || len(got.Assets) != 0 {
			t.Errorf("%s: never-seen address: %+v, %v; want zero", c.mode, got, err)
		}
	}
}

func TestBalanceByStake(t *testing.T) {
	needChains(t)
	ctx := t.Context()
	for _, raw := range samples.StakeKeys {
		bech := stakeBech32(t, raw)
		key, err := cardano.ParseStakeKey(bech, true)
		if err != nil {
			t.Fatal(err)
		}
		var perMode []any
		for _, c := range chains {
			got, err := c.db.BalanceByStake(ctx, key)
			if err != nil {
				t.Fatalf("%s %s: %v", c.mode, bech, err)
			}
			utxos, err := c.db.UTxOsByStake(ctx, key)
			if err != nil {
				t.Fatal(err)
			}
			if own := balanceLine(sumUTxOs(utxos)); valueLine(got) != own {
				t.Errorf("%s %s: balance %s, its own UTxOs sum to %s", c.mode, bech, valueLine(got), own)
			}
			where := "o.stake_address_id = (SELECT id FROM stake_address WHERE hash_raw = $1)"
			if want := independentBalance(t, c, where, raw); valueLine(got) != want {
				t.Errorf("%s %s: balance %s, SQL sum %s", c.mode, bech, valueLine(got), want)
			}
			perMode = append(perMode, got)
		}
		sameAcrossModes(t, "balance of "+bech, perMode)
	}
	unknown, _ := cardano.ParseStakeKey(strings.Repeat("ab", 28), true)
	for _, c := range chains {
		got, err := c.db.BalanceByStake(ctx, unknown)
		if err != nil || got.Lovelace.Sign() != 0 || len(got.Assets) != 0 {
			t.Errorf("%s: unknown stake key: %+v, %v; want zero", c.mode, got, err)
		}
	}
}
