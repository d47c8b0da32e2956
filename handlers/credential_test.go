package handlers

import (
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/btcsuite/btcd/btcutil/bech32"

	"github.com/syncgate/syncgate/internal/devtools/chaingen"
)

// badCredentials must all be 400 Invalid payment credential format.
func badCredentials(t *testing.T, m *chaingen.Manifest) map[string]string {
	t.Helper()
	pay := m.Credentials.Payment
	raw, _ := hex.DecodeString(pay.Hex)
	five, _ := bech32.ConvertBits(raw, 8, 5, true)
	stakeVKH, _ := bech32.Encode("stake_vkh", five)
	short, _ := bech32.ConvertBits(raw[:27], 8, 5, true)
	shortVKH, _ := bech32.Encode("addr_vkh", short)
	return map[string]string{
		"55 hex":           pay.Hex[:55],
		"57 hex":           pay.Hex + "0",
		"56 non-hex":       "zz" + pay.Hex[2:],
		"bad checksum":     pay.Bech32[:len(pay.Bech32)-1] + flip(pay.Bech32[len(pay.Bech32)-1]),
		"mixed case":       pay.Bech32[:12] + strings.ToUpper(pay.Bech32[12:]),
		"stake_vkh":        stakeVKH,
		"27-byte addr_vkh": shortVKH,
		"pool id":          m.Pools.Biggest.ID,
		"payment address":  pay.Addresses[0],
		"stake address":    m.StakeKeys[0].StakeAddress,
		"garbage":          "notacredential",
		"long":             strings.Repeat("q", 300),
	}
}

func flip(b byte) string {
	if b == 'q' {
		return "p"
	}
	return "q"
}

// addressKind is the Shelley header type's family: base, pointer, enterprise.
func addressKind(t *testing.T, addr string) string {
	t.Helper()
	_, data, err := bech32.DecodeNoLimit(addr)
	if err != nil {
		t.Fatalf("%s: %v", addr, err)
	}
	raw, _ := bech32.ConvertBits(data, 5, 8, false)
	switch raw[0] >> 4 {
	case 0, 1, 2, 3:
		return "base"
	case 4, 5:
		return "pointer"
	case 6, 7:
		return "enterprise"
	}
	return fmt.Sprintf("type %d", raw[0]>>4)
}

func TestCredentialUTxOsAndBalance(t *testing.T) {
	m := seededChains(t)[0].manifest
	creds := map[string]chaingen.CredentialRef{"payment": m.Credentials.Payment, "script": m.Credentials.Script}
	for name, ref := range creds {
		if ref.Hex == "" || ref.UTxOs == 0 || len(ref.Addresses) == 0 {
			t.Fatalf("manifest %s credential is empty: %+v", name, ref)
		}
	}
	if !strings.HasPrefix(m.Credentials.Payment.Bech32, "addr_vkh1") || !strings.HasPrefix(m.Credentials.Script.Bech32, "script1") {
		t.Fatalf("manifest credentials %s / %s", m.Credentials.Payment.Bech32, m.Credentials.Script.Bech32)
	}
	for _, c := range seededChains(t) {
		s := chainServer(t, c)
		unspent := `NOT EXISTS (SELECT 1 FROM tx_in i WHERE i.tx_out_id = o.tx_id AND i.tx_out_index = o.index)`
		if c.mode == chaingen.ModeConsumed {
			unspent = `o.consumed_by_tx_id IS NULL`
		}
		for name, ref := range creds {
			// The unspent outputs carrying the credential, in chain order.
			var want []string
			if err := c.raw.Select(&want, `SELECT encode(t.hash, 'hex') || '#' || o.index FROM tx_out o
				JOIN tx t ON t.id = o.tx_id JOIN block b ON b.id = t.block_id
				WHERE o.payment_cred = decode($1, 'hex') AND `+unspent+`
				ORDER BY b.slot_no, t.block_index, o.index`, ref.Hex); err != nil {
				t.Fatal(err)
			}
			if len(want) != ref.UTxOs {
				t.Fatalf("%s %s: SQL finds %d unspent outputs, manifest %d", c.mode, name, len(want), ref.UTxOs)
			}
			var lovelace string
			var assets []struct {
				Unit string `db:"unit"`
				Qty  string `db:"qty"`
			}
			if err := c.raw.Get(&lovelace, `SELECT COALESCE(sum(o.value), 0)::text FROM tx_out o
				WHERE o.payment_cred = decode($1, 'hex') AND `+unspent, ref.Hex); err != nil {
				t.Fatal(err)
			}
			if err := c.raw.Select(&assets, `SELECT encode(ma.policy, 'hex') || '.' || encode(ma.name, 'hex') AS unit, sum(mto.quantity)::text AS qty
				FROM tx_out o JOIN ma_tx_out mto ON mto.tx_out_id = o.id JOIN multi_asset ma ON ma.id = mto.ident
				WHERE o.payment_cred = decode($1, 'hex') AND `+unspent+` GROUP BY 1`, ref.Hex); err != nil {
				t.Fatal(err)
			}
			for _, form := range []string{ref.Hex, strings.ToUpper(ref.Hex), ref.Bech32, strings.ToUpper(ref.Bech32)} {
				path := "/v1/utxos/credential/" + url.PathEscape(form)
				r := get(t, s, path)
				if r.Status != 200 || !r.Success {
					t.Fatalf("%s GET %s: %d %s", c.mode, path, r.Status, r.Raw)
				}
				utxos := checkUTxOs(t, path, r.Data)
				var got []string
				kinds := map[string]bool{}
				for _, u := range utxos {
					got = append(got, fmt.Sprintf("%s#%d", u.TransactionID, u.OutputIndex))
					if !slices.Contains(ref.Addresses, u.Address) {
						t.Errorf("%s %s: output at %s, not an address of the credential", c.mode, path, u.Address)
					}
					kinds[addressKind(t, u.Address)] = true
					if name == "script" && (u.ScriptHash == nil || *u.ScriptHash != ref.Hex) {
						t.Errorf("%s %s: script_hash %v", c.mode, path, u.ScriptHash)
					}
				}
				if !slices.Equal(got, want) {
					t.Errorf("%s %s: outputs\n%v\nSQL\n%v", c.mode, path, got, want)
				}
				if name == "payment" && len(kinds) != 3 {
					t.Errorf("%s %s: address kinds %v; the manifest's credential has base, enterprise and pointer outputs", c.mode, path, kinds)
				}

				bpath := "/v1/assets/balance/credential/" + url.PathEscape(form)
				var flat struct {
					Lovelace json.Number            `json:"lovelace"`
					Assets   map[string]json.Number `json:"assets"`
				}
				br := get(t, s, bpath)
				if br.Status != 200 {
					t.Fatalf("%s GET %s: %d %s", c.mode, bpath, br.Status, br.Raw)
				}
				decodeExact(t, br.Data, &flat)
				if flat.Lovelace.String() != lovelace || len(flat.Assets) != len(assets) {
					t.Errorf("%s %s: %s lovelace, %d assets; SQL %s, %d", c.mode, bpath, flat.Lovelace, len(flat.Assets), lovelace, len(assets))
				}
				for _, a := range assets {
					if flat.Assets[a.Unit].String() != a.Qty {
						t.Errorf("%s %s: %s = %s, SQL %s", c.mode, bpath, a.Unit, flat.Assets[a.Unit], a.Qty)
					}
				}
				var grouped struct {
					Lovelace json.Number                       `json:"lovelace"`
					Assets   map[string]map[string]json.Number `json:"assets"`
				}
				decodeExact(t, get(t, s, bpath+"?groupByPolicy=true").Data, &grouped)
				n := 0
				for policy, names := range grouped.Assets {
					for an, q := range names {
						n++
						if flat.Assets[policy+"."+an] != q {
							t.Errorf("%s %s grouped: %s.%s = %s", c.mode, bpath, policy, an, q)
						}
					}
				}
				if grouped.Lovelace != flat.Lovelace || n != len(flat.Assets) {
					t.Errorf("%s %s: grouped differs from flat", c.mode, bpath)
				}
			}
		}
		// A well-formed credential never seen on chain: empty, not 404.
		fresh := strings.Repeat("cd", 28)
		for path, want := range map[string]string{
			"/v1/utxos/credential/" + fresh:                               `{"success":true,"data":[]}`,
			"/v1/assets/balance/credential/" + fresh:                      `{"success":true,"data":{"lovelace":0,"assets":{}}}`,
			"/v1/assets/balance/credential/" + fresh + "?groupByPolicy=1": `{"success":true,"data":{"lovelace":0,"assets":{}}}`,
		} {
			if r := get(t, s, path); r.Status != 200 || strings.TrimSpace(string(r.Raw)) != want {
				t.Errorf("%s GET %s = %d %s; want %s", c.mode, path, r.Status, r.Raw, want)
			}
		}
	}
	// Both modes answer byte for byte alike.
	a, b := chainServer(t, seededChains(t)[0]), chainServer(t, seededChains(t)[1])
	for _, ref := range creds {
		for _, p := range []string{"/v1/utxos/credential/" + ref.Bech32, "/v1/assets/balance/credential/" + ref.Hex + "?groupByPolicy=true"} {
			if ra, rb := get(t, a, p), get(t, b, p); string(ra.Raw) != string(rb.Raw) {
				t.Errorf("GET %s differs between modes:\n%.300s\n%.300s", p, ra.Raw, rb.Raw)
			}
		}
	}
}

func TestCredentialErrors(t *testing.T) {
	s := chainServer(t, seededChains(t)[0])
	m := seededChains(t)[0].manifest
	const msg = "Invalid payment credential format"
	for name, bad := range badCredentials(t, m) {
		for _, path := range []string{"/v1/utxos/credential/", "/v1/assets/balance/credential/"} {
			p := path + url.PathEscape(bad)
			if r := get(t, s, p); r.Status != 400 || r.Success || r.Error != msg || r.Data != nil {
				t.Errorf("%s: GET %s = %d %s; want 400 %q", name, p, r.Status, r.Raw, msg)
			}
		}
	}
	for _, v := range []string{"yes", "2", "null"} {
		p := "/v1/assets/balance/credential/" + m.Credentials.Payment.Hex + "?groupByPolicy=" + v
		if r := get(t, s, p); r.Status != 400 || r.Error != "Invalid groupByPolicy: must be true or false" {
			t.Errorf("GET %s = %d %s", p, r.Status, r.Raw)
		}
	}
	// The credential's network is the caller's: a preprod key reaches no database here.
	if r := getWithKey(t, s, "/v1/utxos/credential/"+m.Credentials.Payment.Hex, preprodKey); r.Status != 503 {
		t.Errorf("preprod key: %d %s", r.Status, r.Raw)
	}
}
