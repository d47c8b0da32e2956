package jsclients_test

import (
	"context"
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/syncgate/syncgate/internal/devtools/bfschema"
	"github.com/syncgate/syncgate/internal/devtools/jsclients"
)

const (
	testKey     = "mainnetSyncgateTestKey0123456789"
	testAddress = "addr1qxqs59lphg8g6qndelq8xwqn60ag3aeyfcp33c2kdp46a09re5df3pzwwmyq946axfcejy5n4x0y99wqpgtp2gd0k09qsgy6pz"
)

// TestPinnedVersions: what node_modules holds is what package.json pins.
func TestPinnedVersions(t *testing.T) {
	for name, want := range map[string]string{
		"@blockfrost/openapi":       "0.1.93",
		"@blockfrost/blockfrost-js": "6.2.0",
		"@lucid-evolution/lucid":    "0.4.34",
		"@lucid-evolution/provider": "0.1.94",
		"@meshsdk/core":             "1.9.1",
	} {
		b, err := os.ReadFile(filepath.Join(jsclients.Package(t, name), "package.json"))
		if err != nil {
			t.Fatal(err)
		}
		var pkg struct{ Version string }
		if err := json.Unmarshal(b, &pkg); err != nil {
			t.Fatal(err)
		}
		if pkg.Version != want {
			t.Errorf("%s %s installed, %s pinned", name, pkg.Version, want)
		}
	}
}

// TestPackagesLoad: each package loads in node by import and by require,
// and the WebAssembly inside Lucid (CML) and Mesh works.
func TestPackagesLoad(t *testing.T) {
	t.Parallel()
	out, err := jsclients.Run(t, context.Background(), "testdata/load.mjs", nil)
	if err != nil {
		t.Fatal(err)
	}
	var got struct {
		Node         string
		Loaded       map[string]map[string]string
		Address      string
		MeshKeyHash  string
		BigInteger   string
		UtxoRequired []string
	}
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	t.Logf("node %s", got.Node)
	if len(got.Loaded) != 5 {
		t.Errorf("loaded %v", got.Loaded)
	}
	for name, how := range got.Loaded {
		if how["import"] != "function" || how["require"] != "function" {
			t.Errorf("%s: %v", name, how)
		}
	}
	if got.Address != "addr1vx2fxv2umyhttkxyxp8x0dlpdt3k6cwng5pxj3jhsydzers66hrl8" ||
		got.MeshKeyHash != "9493315cd92eb5d8c4304e67b7e16ae36d61d34502694657811a2c8e" ||
		got.BigInteger != "123456789012345678901234567890" {
		t.Errorf("CML and Mesh: %+v", got)
	}
	if !strings.Contains(strings.Join(got.UtxoRequired, ","), "tx_index") {
		t.Errorf("getSchemaForEndpoint: utxo required %v", got.UtxoRequired)
	}
}

func TestRun(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	out, err := jsclients.Run(t, ctx, `console.log(process.env.GREETING + " " + typeof (await import("@blockfrost/openapi")).getSchema)`,
		map[string]string{"GREETING": "hello"})
	if err != nil || string(out) != "hello function\n" {
		t.Errorf("inline ES module: %q %v", out, err)
	}

	// CommonJS from outside the folder: require finds the packages too.
	cjs := filepath.Join(t.TempDir(), "x.cjs")
	if err := os.WriteFile(cjs, []byte(`console.log(typeof require("@blockfrost/openapi").getSchema)`), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := jsclients.Run(t, ctx, cjs, nil); err != nil || string(out) != "function\n" {
		t.Errorf("CommonJS: %q %v", out, err)
	}

	out, err = jsclients.Run(t, ctx, "console.log('partial'); console.error('the reason'); process.exit(3)", nil)
	if err == nil || !strings.Contains(err.Error(), "the reason") || !strings.Contains(err.Error(), "exit status 3") || string(out) != "partial\n" {
		t.Errorf("a failing script: out %q, error %v", out, err)
	}
	if _, err := jsclients.Run(t, ctx, `import "no-such-package-here"`, nil); err == nil || !strings.Contains(err.Error(), "no-such-package-here") {
		t.Errorf("a missing package: %v", err)
	}
	if _, err := jsclients.Run(t, ctx, "testdata/missing.mjs", nil); err == nil || !strings.Contains(err.Error(), "not a file") {
		t.Errorf("a missing script: %v", err)
	}

	short, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	start := time.Now()
	_, err = jsclients.Run(t, short, "await new Promise((r) => setTimeout(r, 60000))", nil)
	if err == nil || !strings.Contains(err.Error(), "deadline exceeded") || time.Since(start) > 20*time.Second {
		t.Errorf("a script past its deadline: %v after %s", err, time.Since(start))
	}
}

// TestBlockfrostJS: blockfrost-js reaches the fake under /api/v0 with its
// key in project_id; addressesUtxosAll walks the pages ten at a time.
func TestBlockfrostJS(t *testing.T) {
	t.Parallel()
	doc := bfschema.Open(t)
	full, short := utxos(t, doc, 100), utxos(t, doc, 1)
	fake := newFake(t, "/api/v0", map[string]answer{
		"GET /health": func(map[string]string, *http.Request) (int, any) { return 200, map[string]any{"is_healthy": true} },
		"GET /addresses/{address}/utxos": func(_ map[string]string, r *http.Request) (int, any) {
			switch r.URL.Query().Get("page") {
			case "1":
				return 200, full
			case "2":
				return 200, short
			}
			return 200, []any{}
		},
	})
	out, err := jsclients.Run(t, context.Background(), "testdata/blockfrost_health.mjs",
		map[string]string{"BF_URL": fake.URL(), "BF_KEY": testKey, "BF_ADDRESS": testAddress})
	fake.logRequests(t, "blockfrost-js")
	if err != nil {
		t.Fatal(err)
	}
	if strings.TrimSpace(string(out)) != `{"health":{"is_healthy":true},"utxos":101}` {
		t.Errorf("printed %s", out)
	}
	seen := fake.requests()
	if len(seen) != 11 || seen[0].Path != "/api/v0/health" {
		t.Fatalf("requests %v", seen)
	}
	pages := map[string]bool{}
	for _, e := range seen {
		if got := e.Header.Get("project_id"); got != testKey {
			t.Errorf("%s: project_id %q", e, got)
		}
		if e.Header.Get("User-Agent") != "@blockfrost/blockfrost-js@6.2.0" {
			t.Errorf("%s: User-Agent %q", e, e.Header.Get("User-Agent"))
		}
		if e.Path == "/api/v0/addresses/"+testAddress+"/utxos" {
			pages[e.Query] = true
		}
	}
	for p := 1; p <= 10; p++ {
		if q := "page=" + strconv.Itoa(p) + "&count=100&order=asc"; !pages[q] {
			t.Errorf("no request with ?%s: %v", q, pages)
		}
	}
}

// TestLucid: Lucid Evolution's Blockfrost provider reads the protocol
// parameters (the document's example) with project_id and a lucid header,
// Lucid starts on them, and the provider walks UTxO pages with ?page=N
// alone until an empty one.
func TestLucid(t *testing.T) {
	t.Parallel()
	params := example(t, bfschema.Open(t), "GET /epochs/latest/parameters").(map[string]any)
	// The document gives the Conway parameters no example (null in the
	// assembled one), and Lucid cannot start without them (BigInt(null)
	// throws): mainnet's values.
	params["drep_deposit"], params["gov_action_deposit"], params["min_fee_ref_script_cost_per_byte"] = "500000000", "100000000000", 15
	// Its cost models end each list with "..." (cut short for the page):
	// Lucid hands them to CML, which takes integers only.
	for lang, costs := range params["cost_models_raw"].(map[string]any) {
		var ints []any
		for _, c := range costs.([]any) {
			if _, ok := c.(float64); ok {
				ints = append(ints, c)
			}
		}
		params["cost_models_raw"].(map[string]any)[lang] = ints
	}
	three := utxos(t, bfschema.Open(t), 3)
	fake := newFake(t, "/api/v0", map[string]answer{
		"GET /epochs/latest/parameters": func(map[string]string, *http.Request) (int, any) { return 200, params },
		"GET /addresses/{address}/utxos": func(_ map[string]string, r *http.Request) (int, any) {
			if r.URL.Query().Get("page") == "1" {
				return 200, three
			}
			return 200, []any{}
		},
	})
	out, err := jsclients.Run(t, context.Background(), "testdata/lucid_parameters.mjs",
		map[string]string{"BF_URL": fake.URL(), "BF_KEY": testKey, "BF_ADDRESS": testAddress})
	fake.logRequests(t, "lucid")
	if err != nil {
		t.Fatal(err)
	}
	var got struct {
		Params       map[string]any
		Network      string
		LucidMinFeeA float64
		Utxos        []struct {
			TxHash      string
			OutputIndex int
			Assets      map[string]string
		}
	}
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	if got.Params["minFeeA"] != params["min_fee_a"] || got.Params["keyDeposit"] != params["key_deposit"] ||
		got.Network != "Mainnet" || got.LucidMinFeeA != params["min_fee_a"] ||
		len(got.Utxos) != 3 || got.Utxos[2].OutputIndex != 2 || got.Utxos[0].Assets["lovelace"] != "42000000" {
		t.Errorf("printed %s", out)
	}
	// Lucid() reads the parameters again for itself.
	want := []string{"/epochs/latest/parameters?", "/epochs/latest/parameters?",
		"/addresses/" + testAddress + "/utxos?page=1", "/addresses/" + testAddress + "/utxos?page=2"}
	seen := fake.requests()
	if len(seen) != len(want) {
		t.Fatalf("requests %v", seen)
	}
	for i, e := range seen {
		if e.Path+"?"+e.Query != "/api/v0"+want[i] || e.Header.Get("project_id") != testKey || e.Header.Get("lucid") != "0.1.94" {
			t.Errorf("request %d: %s, want %s with project_id and lucid: 0.1.94", i, e, want[i])
		}
	}
}

// TestMesh: Mesh's BlockfrostProvider given a URL carries the key only in
// that URL's path (no project_id header), and walks UTxO pages with
// ?page=N alone until an empty one.
func TestMesh(t *testing.T) {
	t.Parallel()
	doc := bfschema.Open(t)
	block := example(t, doc, "GET /blocks/{hash_or_number}").(map[string]any)
	three := utxos(t, doc, 3)
	prefix := "/key/" + testKey + "/api/v0"
	fake := newFake(t, prefix, map[string]answer{
		"GET /blocks/{hash_or_number}": func(p map[string]string, _ *http.Request) (int, any) {
			if p["hash_or_number"] != block["hash"] {
				return 404, map[string]any{"status_code": 404, "error": "Not Found", "message": "The requested component has not been found."}
			}
			return 200, block
		},
		"GET /addresses/{address}/utxos": func(_ map[string]string, r *http.Request) (int, any) {
			if r.URL.Query().Get("page") == "1" {
				return 200, three
			}
			return 200, []any{}
		},
	})
	out, err := jsclients.Run(t, context.Background(), "testdata/mesh_block.mjs",
		map[string]string{"BF_URL": fake.URL(), "BF_BLOCK": block["hash"].(string), "BF_ADDRESS": testAddress})
	fake.logRequests(t, "mesh")
	if err != nil {
		t.Fatal(err)
	}
	var got struct {
		Block struct {
			Hash    string
			TxCount float64
		}
		Utxos int
	}
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	if got.Block.Hash != block["hash"] || got.Block.TxCount != block["tx_count"] || got.Utxos != 3 {
		t.Errorf("printed %s", out)
	}
	want := []string{"/blocks/" + block["hash"].(string) + "?", "/addresses/" + testAddress + "/utxos?page=1", "/addresses/" + testAddress + "/utxos?page=2"}
	seen := fake.requests()
	if len(seen) != len(want) {
		t.Fatalf("requests %v", seen)
	}
	for i, e := range seen {
		if e.Path+"?"+e.Query != prefix+want[i] {
			t.Errorf("request %d: %s, want %s", i, e, prefix+want[i])
		}
		if _, ok := e.Header["Project_id"]; ok {
			t.Errorf("%s: Mesh sent project_id", e)
		}
	}
}
