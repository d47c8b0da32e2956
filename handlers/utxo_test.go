package handlers

import (
	"bytes"
	"encoding/json"
	"github.com/syncgate/syncgate/dbsync"
	"github.com/syncgate/syncgate/internal/devtools/testdb"
	"math/big"
	"net/url"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/syncgate/syncgate/handlers/httpx"
)

// Addresses and keys that must be refused (messages in errors.go, docs/DECISIONS.md
// "Identifiers"), whatever the route.
var (
	badAddresses = map[string]string{
		"stake address":        "stake1uyehkck0lajq8gr28t9uxnuvgcqrc6070x3k9r8048z8y5gh6ffgw",
		"testnet address":      "addr_test1vz2fxv2umyhttkxyxp8x0dlpdt3k6cwng5pxj3jhsydzerspjrlsz",
		"testnet Byron":        "FHnt4NL7yPXvDWHa8bVs73UEUdJd64VxWXSFNqetECtYfTd9TtJguJ14Lu3feth",
		"garbage":              "notanaddress",
		"Byron-looking":        "Ae2tdPwUPEZFRbyhz3cpfC2CumGzNkFBN2L42rcUc2yjQpEkxDbkPodpMAX",
		"bad checksum":         "addr1vx2fxv2umyhttkxyxp8x0dlpdt3k6cwng5pxj3jhsydzers66hrl9",
		"pool id":              "pool1pu5jlj4q9w9jlxeu370a3c9myx47md5j5m2str0naunn2q3lkdy",
		"hex credential":       strings.Repeat("ab", 28),
		"Byron bytes bech32":   "addr_test1stvpskppsdvpcpyxtepdyde6mklt6hf2e7quwcxgfztszs5gnalwwccfrwsqqxhsrytd2vqclr3",
		"wrong network header": "addr1vpu5vlrf4xkxv2qpwngf6cjhtw542ayty80v8dyr49rf5eg0yu80w",
	}
	badStakeKeys = map[string]string{
		"payment address": "addr1vx2fxv2umyhttkxyxp8x0dlpdt3k6cwng5pxj3jhsydzers66hrl8",
		"testnet stake":   "stake_test1uqehkck0lajq8gr28t9uxnuvgcqrc6070x3k9r8048z8y5gssrtvn",
		"garbage":         "notastakekey",
		"55 hex":          strings.Repeat("a", 55),
		"57 hex":          strings.Repeat("a", 57),
		"56 non-hex":      strings.Repeat("g", 56),
		"bad checksum":    "stake1uyehkck0lajq8gr28t9uxnuvgcqrc6070x3k9r8048z8y5gh6ffgx",
		"Byron address":   "Ae2tdPwUPEYwFx4dmJheyNPPYXtvHbJLeCaA96o6Y2iiUL18cAt7AizN2zG",
	}
)

func TestUTxOAndBalanceErrors(t *testing.T) {
	s := chainServer(t, seededChains(t)[0])
	type errCase struct{ name, path, want string }
	var cases []errCase
	for name, a := range badAddresses {
		a = url.PathEscape(a)
		cases = append(cases,
			errCase{"utxos " + name, "/v1/utxos/address/" + a, "Invalid address format"},
			errCase{"balance " + name, "/v1/assets/balance/address/" + a, "Invalid address format"},
		)
	}
	for name, k := range badStakeKeys {
		cases = append(cases,
			errCase{"stake utxos " + name, "/v1/utxos/stake/" + k, "Invalid stake key format"},
			errCase{"stake balance " + name, "/v1/assets/balance/stake/" + k, "Invalid stake key format"},
		)
	}
	good := "addr1vx2fxv2umyhttkxyxp8x0dlpdt3k6cwng5pxj3jhsydzers66hrl8"
	for _, v := range []string{"yes", "2", "truee", "null"} {
		cases = append(cases,
			errCase{"groupByPolicy " + v, "/v1/assets/balance/address/" + good + "?groupByPolicy=" + v, "Invalid groupByPolicy: must be true or false"},
			errCase{"stake groupByPolicy " + v, "/v1/assets/balance/stake/" + strings.Repeat("ab", 28) + "?groupByPolicy=" + v, "Invalid groupByPolicy: must be true or false"},
		)
	}
	for _, tc := range cases {
		r := get(t, s, tc.path)
		if r.Status != 400 || r.Success || r.Error != tc.want || r.Data != nil {
			t.Errorf("%s: GET %s = %d %s; want 400 %q", tc.name, tc.path, r.Status, r.Raw, tc.want)
		}
	}
}

// The mainnet key's chain is mainnet: a preprod credential reaches no
// database here, and the network check happens before any parsing.
func TestChainNetworkNotServed(t *testing.T) {
	s := chainServer(t, seededChains(t)[0])
	r := getWithKey(t, s, "/v1/utxos/address/notanaddress", preprodKey)
	if r.Status != 503 || r.Error != "Network preprod is not served by this deployment" {
		t.Fatalf("got %d %s", r.Status, r.Raw)
	}
}

var hex64 = regexp.MustCompile(`^[0-9a-f]{64}$`)

// utxoWire is the UTxO object (OpenAPI) as a strict client reads it.
type utxoWire struct {
	TransactionID string `json:"transaction_id"`
	OutputIndex   int    `json:"output_index"`
	Address       string `json:"address"`
	Value         struct {
		Lovelace json.Number            `json:"lovelace"`
		Assets   map[string]json.Number `json:"assets"`
	} `json:"value"`
	DatumHash  *string `json:"datum_hash"`
	ScriptHash *string `json:"script_hash"`
	CreatedAt  struct {
		SlotNo     json.Number `json:"slot_no"`
		HeaderHash string      `json:"header_hash"`
	} `json:"created_at"`
}

var utxoKeys = []string{"address", "created_at", "datum_hash", "output_index", "script_hash", "transaction_id", "value"}

// checkUTxOs checks every UTxO's shape: exactly the spec's keys, hex where
// hex belongs, integer numbers, assets always an object.
func checkUTxOs(t *testing.T, what string, data json.RawMessage) []utxoWire {
	t.Helper()
	var generic []map[string]json.RawMessage
	decodeExact(t, data, &generic)
	for _, u := range generic {
		keys := make([]string, 0, len(u))
		for k := range u {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		if strings.Join(keys, ",") != strings.Join(utxoKeys, ",") {
			t.Fatalf("%s: UTxO keys %v, want %v", what, keys, utxoKeys)
		}
		if string(u["datum_hash"]) != "null" && !regexp.MustCompile(`^"[0-9a-f]{64}"$`).Match(u["datum_hash"]) {
			t.Fatalf("%s: datum_hash %s", what, u["datum_hash"])
		}
		if string(u["script_hash"]) != "null" && !regexp.MustCompile(`^"[0-9a-f]{56}"$`).Match(u["script_hash"]) {
			t.Fatalf("%s: script_hash %s", what, u["script_hash"])
		}
	}
	var utxos []utxoWire
	decodeExact(t, data, &utxos)
	for _, u := range utxos {
		if !hex64.MatchString(u.TransactionID) || !hex64.MatchString(u.CreatedAt.HeaderHash) || u.Address == "" {
			t.Fatalf("%s: malformed UTxO %+v", what, u)
		}
		if u.Value.Assets == nil {
			t.Fatalf("%s: assets must be an object, even empty", what)
		}
		for _, n := range append([]json.Number{u.Value.Lovelace, u.CreatedAt.SlotNo}, mapValues(u.Value.Assets)...) {
			if _, ok := new(big.Int).SetString(n.String(), 10); !ok {
				t.Fatalf("%s: %q is not an exact integer", what, n)
			}
		}
	}
	return utxos
}

func mapValues(m map[string]json.Number) []json.Number {
	out := make([]json.Number, 0, len(m))
	for _, v := range m {
		out = append(out, v)
	}
	return out
}

func TestUTxOsShapeAndBalances(t *testing.T) {
	smp := testSamples(t)
	type target struct{ utxos, balance string }
	targets := []target{
		{"/v1/utxos/address/" + smp.Whale, "/v1/assets/balance/address/" + smp.Whale},
		{"/v1/utxos/address/" + smp.Busy, "/v1/assets/balance/address/" + smp.Busy},
		{"/v1/utxos/address/" + smp.Byron, "/v1/assets/balance/address/" + smp.Byron},
		{"/v1/utxos/address/" + smp.Script, "/v1/assets/balance/address/" + smp.Script},
		{"/v1/utxos/address/" + smp.BigHolder, "/v1/assets/balance/address/" + smp.BigHolder},
		{"/v1/utxos/address/" + smp.CollatAddr, "/v1/assets/balance/address/" + smp.CollatAddr},
		{"/v1/utxos/address/" + smp.DatumAddr, "/v1/assets/balance/address/" + smp.DatumAddr},
		{"/v1/utxos/stake/" + smp.Stake, "/v1/assets/balance/stake/" + smp.Stake},
		{"/v1/utxos/stake/" + smp.StakeHex, "/v1/assets/balance/stake/" + smp.StakeHex},
	}
	for _, c := range seededChains(t) {
		s := chainServer(t, c)
		sawBig, sawScript, sawDatum := false, false, false
		for _, tg := range targets {
			r := get(t, s, tg.utxos)
			if r.Status != 200 || !r.Success {
				t.Fatalf("%s GET %s: %d %s", c.mode, tg.utxos, r.Status, r.Raw)
			}
			utxos := checkUTxOs(t, tg.utxos, r.Data)
			if len(utxos) == 0 && strings.Contains(tg.utxos, smp.Whale) {
				t.Fatalf("%s %s: the whale holds no UTxOs", c.mode, tg.utxos)
			}
			// Ordered by slot, then output index (DECISIONS).
			for i := 1; i < len(utxos); i++ {
				a, b := utxos[i-1], utxos[i]
				sa, _ := a.CreatedAt.SlotNo.Int64()
				sb, _ := b.CreatedAt.SlotNo.Int64()
				if sa > sb || sa == sb && a.TransactionID == b.TransactionID && a.OutputIndex >= b.OutputIndex {
					t.Fatalf("%s %s: UTxOs out of order at %d", c.mode, tg.utxos, i)
				}
			}
			// The balance is the sum of the endpoint's own UTxOs, flat and grouped.
			lovelace, assets := new(big.Int), map[string]*big.Int{}
			for _, u := range utxos {
				l, _ := new(big.Int).SetString(u.Value.Lovelace.String(), 10)
				lovelace.Add(lovelace, l)
				for unit, q := range u.Value.Assets {
					n, _ := new(big.Int).SetString(q.String(), 10)
					if assets[unit] == nil {
						assets[unit] = new(big.Int)
					}
					assets[unit].Add(assets[unit], n)
					if n.Cmp(big.NewInt(1<<53)) > 0 {
						sawBig = true
					}
				}
				sawScript = sawScript || u.ScriptHash != nil
				sawDatum = sawDatum || u.DatumHash != nil
			}
			var flat struct {
				Lovelace json.Number            `json:"lovelace"`
				Assets   map[string]json.Number `json:"assets"`
			}
			r = get(t, s, tg.balance)
			decodeExact(t, r.Data, &flat)
			if flat.Lovelace.String() != lovelace.String() || len(flat.Assets) != len(assets) || flat.Assets == nil {
				t.Fatalf("%s %s: balance %s with %d assets, UTxOs sum to %s with %d", c.mode, tg.balance, flat.Lovelace, len(flat.Assets), lovelace, len(assets))
			}
			for unit, q := range flat.Assets {
				if assets[unit] == nil || q.String() != assets[unit].String() {
					t.Fatalf("%s %s: %s = %s, UTxOs sum to %v", c.mode, tg.balance, unit, q, assets[unit])
				}
			}
			var grouped struct {
				Lovelace json.Number                       `json:"lovelace"`
				Assets   map[string]map[string]json.Number `json:"assets"`
			}
			decodeExact(t, get(t, s, tg.balance+"?groupByPolicy=true").Data, &grouped)
			n := 0
			for policy, names := range grouped.Assets {
				for name, q := range names {
					n++
					if want := flat.Assets[policy+"."+name]; q != want {
						t.Fatalf("%s %s grouped: %s.%s = %s, flat %s", c.mode, tg.balance, policy, name, q, want)
					}
				}
			}
			if grouped.Lovelace != flat.Lovelace || n != len(flat.Assets) {
				t.Fatalf("%s %s: grouped balance differs from flat", c.mode, tg.balance)
			}
		}
		if !sawBig || !sawScript || !sawDatum {
			t.Errorf("%s: samples never showed a quantity above 2^53 (%v), a script hash (%v) or a datum hash (%v)", c.mode, sawBig, sawScript, sawDatum)
		}
	}
}

func TestUTxOsNeverSeen(t *testing.T) {
	const fresh = "addr1vx2fxv2umyhttkxyxp8x0dlpdt3k6cwng5pxj3jhsydzers66hrl8"
	s := chainServer(t, seededChains(t)[1])
	for path, want := range map[string]string{
		"/v1/utxos/address/" + fresh:                                                   `{"success":true,"data":[]}`,
		"/v1/utxos/stake/" + strings.Repeat("ab", 28):                                  `{"success":true,"data":[]}`,
		"/v1/assets/balance/address/" + fresh:                                          `{"success":true,"data":{"lovelace":0,"assets":{}}}`,
		"/v1/assets/balance/stake/" + strings.Repeat("cd", 28) + "?groupByPolicy=true": `{"success":true,"data":{"lovelace":0,"assets":{}}}`,
	} {
		r := get(t, s, path)
		if r.Status != 200 || strings.TrimSpace(string(r.Raw)) != want {
			t.Errorf("GET %s = %d %s; want 200 %s", path, r.Status, r.Raw, want)
		}
	}
}

// Every chain endpoint answers byte-for-byte the same in both UTxO modes.
func TestChainSameAcrossModes(t *testing.T) {
	smp := testSamples(t)
	paths := []string{
		"/v1/utxos/address/" + smp.Whale,
		"/v1/utxos/address/" + smp.Byron,
		"/v1/utxos/address/" + smp.CollatAddr,
		"/v1/utxos/stake/" + smp.Stake,
		"/v1/utxos/stake/" + smp.StakeHex,
		"/v1/assets/balance/address/" + smp.Whale,
		"/v1/assets/balance/address/" + smp.BigHolder + "?groupByPolicy=true",
		"/v1/assets/balance/stake/" + smp.Stake,
		"/v1/tx/hash/" + smp.FailedTx,
		"/v1/tx/hash/" + smp.AssetsTx + "?groupByPolicy=true",
		"/v1/tx/history/" + smp.Whale,
		"/v1/tx/history/" + smp.Busy + "?limit=20&order=asc",
		"/v1/tx/history/" + smp.Whale + "?limit=50&offset=7&order=desc",
		"/v1/tx/address/" + smp.Whale,
		"/v1/tx/address/" + smp.CollatAddr + "?groupByPolicy=true&order=asc&limit=100",
		"/v1/tx/address/" + smp.Busy + "?limit=5",
	}
	var servers []*Server
	for _, c := range seededChains(t) {
		servers = append(servers, chainServer(t, c))
	}
	for _, p := range paths {
		first := get(t, servers[0], p)
		if first.Status != 200 || !first.Success {
			t.Fatalf("GET %s: %d %.300s", p, first.Status, first.Raw)
		}
		for i, s := range servers[1:] {
			if r := get(t, s, p); string(r.Raw) != string(first.Raw) {
				t.Errorf("GET %s differs between %s and %s:\n%.300s\n%.300s", p, seededChains(t)[0].mode, seededChains(t)[i+1].mode, first.Raw, r.Raw)
			}
		}
	}
}

// TestUTxOsStreamedInChunks: the UTxO endpoints write their list chunk by
// chunk; with one output per chunk the bytes must be exactly those of the
// one-chunk answer (same httpx.Envelope, commas, newline), and valid JSON.
func TestUTxOsStreamedInChunks(t *testing.T) {
	smp := testSamples(t)
	for _, c := range seededChains(t) {
		chunkedBy := func(n int) *Server {
			db := testdb.MustOpenDBSyncWith(t, c.dsn, dbsync.Options{UTxOChunk: n})
			return New(Deps{Networks: map[string]*dbsync.DB{"mainnet": db}, Credentials: testCredentials, Redis: testRedis(t), Log: quietLog})
		}
		wholeServer, chunkedServer := chunkedBy(100_000), chunkedBy(1)
		for _, path := range []string{"/v1/utxos/address/" + smp.Byron, "/v1/utxos/stake/" + smp.Stake, "/v1/utxos/address/" + smp.Whale} {
			whole := get(t, wholeServer, path)
			chunked := get(t, chunkedServer, path)
			if whole.Status != 200 || chunked.Status != 200 {
				t.Fatalf("%s %s: %d / %d", c.mode, path, whole.Status, chunked.Status)
			}
			var list []json.RawMessage
			if err := json.Unmarshal(chunked.Data, &list); err != nil || len(list) < 2 {
				t.Fatalf("%s %s: %d outputs (%v): the test needs a list of several", c.mode, path, len(list), err)
			}
			if string(whole.Raw) != string(chunked.Raw) {
				t.Errorf("%s %s: chunked answer differs:\n%.300s\n%.300s", c.mode, path, whole.Raw, chunked.Raw)
			}
			// And they are the bytes the ordinary httpx.Envelope writer produces.
			var want bytes.Buffer
			enc := json.NewEncoder(&want)
			enc.SetEscapeHTML(false)
			if err := enc.Encode(httpx.Envelope{Success: true, Data: list}); err != nil {
				t.Fatal(err)
			}
			if want.String() != string(chunked.Raw) {
				t.Errorf("%s %s: streamed httpx.Envelope differs from httpx.WriteJSON's:\n%.300s\n%.300s", c.mode, path, want.String(), chunked.Raw)
			}
		}
	}
}
