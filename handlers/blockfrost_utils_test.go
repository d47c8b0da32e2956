package handlers

import (
	"crypto/rand"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	mrand "math/rand/v2"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"filippo.io/edwards25519"

	"github.com/syncgate/syncgate/dbsync"
	"github.com/syncgate/syncgate/handlers/httpx"
	"github.com/syncgate/syncgate/internal/cardano"
	"github.com/syncgate/syncgate/node"
)

// utilsServer serves mainnet and preprod with no database reached: the
// utils routes read none.
func utilsServer(t *testing.T) http.Handler {
	t.Helper()
	mainnet, _ := cardano.NetworkByName("mainnet")
	preprod, _ := cardano.NetworkByName("preprod")
	return New(Deps{Networks: map[string]*dbsync.DB{"mainnet": unqueriedDB(t, mainnet), "preprod": unqueriedDB(t, preprod)},
		Credentials: testCredentials, Log: quietLog}).Handler()
}

// bfXpub is Blockfrost's fixture account key (internal/cardano's tests
// name its source).
const bfXpub = "7ec9738746cb4708df52a455b43aa3fdee8955abaf37f68ffc79bb84fbf9e1b39d77e2deb9749faf890ff8326d350ed3fd0e4aa271b35cad063692af87102152"

func xpubPath(xpub, role, index string) string {
	return "/utils/addresses/xpub/" + url.PathEscape(xpub) + "/" + url.PathEscape(role) + "/" + url.PathEscape(index)
}

func TestBlockfrostXpubFixtures(t *testing.T) {
	h := utilsServer(t)
	// Blockfrost's recorded answers (blockfrost-tests fixtures).
	for _, c := range []struct {
		key, role, index, want string
	}{
		{mainnetKey, "0", "0", "addr1qxykyqgwd577heaunndagj66z0n2z0jgedjcn3qxlrujpjq49ucjdfty5p5qlw5qe28v9k988stffc2g0hx2xx86a2dqnt753m"},
		{mainnetKey, "1", "1", "addr1qx8dz454rqaxjhrynjhppwq22wwk2dtkz022ngxgcdahflc49ucjdfty5p5qlw5qe28v9k988stffc2g0hx2xx86a2dqq078gh"},
		{mainnetKey, "0", "3", "addr1qy9ltwrqmtl9vu2y9y24aaxppyfhjhyhrfdgy8usxuu3hdq49ucjdfty5p5qlw5qe28v9k988stffc2g0hx2xx86a2dqjrqcu2"},
		{mainnetKey, "1", "3", "addr1qytpyxyh5j023fq88xhj862guwrymhwjadt5czqvumpv02s49ucjdfty5p5qlw5qe28v9k988stffc2g0hx2xx86a2dq56wr69"},
		{preprodKey, "1", "3", "addr_test1qqtpyxyh5j023fq88xhj862guwrymhwjadt5czqvumpv02s49ucjdfty5p5qlw5qe28v9k988stffc2g0hx2xx86a2dqhvnrk6"},
		{preprodKey, "0", "0", "addr_test1qzykyqgwd577heaunndagj66z0n2z0jgedjcn3qxlrujpjq49ucjdfty5p5qlw5qe28v9k988stffc2g0hx2xx86a2dqsar5ay"},
	} {
		for _, xpub := range []string{bfXpub, strings.ToUpper(bfXpub)} {
			r := bfGet(t, h, c.key, xpubPath(xpub, c.role, c.index))
			want := `{"xpub":"` + xpub + `","role":` + c.role + `,"index":` + c.index + `,"address":"` + c.want + `"}` + "\n"
			if r.Code != 200 || string(r.Body) != want {
				t.Errorf("%s/%s: %d %s\nwant %s", c.role, c.index, r.Code, r.Body, want)
			}
		}
	}
	// Role 2 is the stake key's reward address; leading zeros read as
	// the number; the largest soft role and index derive.
	account, _ := cardano.ParseAccountXpub(bfXpub)
	mainnet, _ := cardano.NetworkByName("mainnet")
	stake, _ := cardano.DeriveAddress(account, 2, 0, mainnet)
	var got struct {
		Role, Index uint32
		Address     string
	}
	bfJSON(t, h, xpubPath(bfXpub, "2", "00"), &got)
	if got.Address != stake || !strings.HasPrefix(stake, "stake1") || got.Role != 2 || got.Index != 0 {
		t.Errorf("2/00: %+v, want %s", got, stake)
	}
	bfJSON(t, h, xpubPath(bfXpub, "2147483647", "2147483647"), &got)
	if got.Role != 2147483647 || got.Index != 2147483647 || !strings.HasPrefix(got.Address, "addr1") {
		t.Errorf("largest soft role and index: %+v", got)
	}
}

// A table of malformed keys, roles and indexes: each a 400 with
// Blockfrost's message for the first part that is wrong.
func TestBlockfrostXpubRefusals(t *testing.T) {
	h := utilsServer(t)
	notAPoint := "02" + strings.Repeat("00", 31) + strings.Repeat("11", 32)
	badXpubs := []string{"stonks", bfXpub[:126], bfXpub + "00", bfXpub[:64], "zz" + bfXpub[2:], "0x" + bfXpub[2:],
		" " + bfXpub[1:], bfXpub[:127] + "é", notAPoint, strings.Repeat("0", 128) + "/0",
		"acct_xvk1xfehjaqtvn0vdjqrrfwlgvfk8qedv4fus04thny96lj6rhc2tphsx0wlcdaehpjzjfyj7uref4uqlacrtft55u9ll6eal4h4ac75yzqdnqwtf"}
	badNumbers := []string{"-1", "2147483648", "4294967296", "99999999999999999999", "1.5", "1e3", "+1", "0x1", "abc", " 1", "1 ", "١"}
	want := func(path, msg string) {
		t.Helper()
		r := bfGet(t, h, mainnetKey, path)
		if r.Code == 404 && strings.Contains(path, "%2F") {
			return // a slash in a segment is another route
		}
		if e := r.errorOf(t); r.Code != 400 || e.Message != msg || e.Error != "Bad Request" {
			t.Errorf("%s: %d %+v, want 400 %q", path, r.Code, e, msg)
		}
	}
	for _, x := range badXpubs {
		want(xpubPath(x, "0", "0"), "Invalid or malformed xpub format. Has to be hex of length 128.")
		want(xpubPath(x, "-1", "x"), "Invalid or malformed xpub format. Has to be hex of length 128.")
	}
	for _, n := range badNumbers {
		want(xpubPath(bfXpub, n, "0"), "Missing, out of range or malformed role.")
		want(xpubPath(bfXpub, n, n), "Missing, out of range or malformed role.")
		want(xpubPath(bfXpub, "0", n), "Missing, out of range or malformed index.")
	}
	// A missing segment is no route at all.
	if r := bfGet(t, h, mainnetKey, "/utils/addresses/xpub/"+bfXpub+"/0"); r.Code != 404 {
		t.Errorf("no index: %d %s", r.Code, r.Body)
	}
}

// Random keys, roles and indexes derive what the library derives, on the
// caller's network; random junk in any part is a 400, never a 500.
func TestBlockfrostXpubRandom(t *testing.T) {
	h := utilsServer(t)
	rng := mrand.New(mrand.NewPCG(7, 11))
	for i := range 64 {
		var seed [64]byte
		_, _ = rand.Read(seed[:])
		s, _ := edwards25519.NewScalar().SetUniformBytes(seed[:])
		xpub := hex.EncodeToString(new(edwards25519.Point).ScalarBaseMult(s).Bytes()) + hex.EncodeToString(seed[:32])
		role, index := uint32(rng.IntN(3)), rng.Uint32N(1<<31)
		if i%4 == 0 {
			role = rng.Uint32N(1 << 31)
		}
		key, net := mainnetKey, "mainnet"
		if i%2 == 1 {
			key, net = preprodKey, "preprod"
		}
		n, _ := cardano.NetworkByName(net)
		account, err := cardano.ParseAccountXpub(xpub)
		if err != nil {
			t.Fatal(err)
		}
		want, _ := cardano.DeriveAddress(account, role, index, n)
		var got struct{ Address string }
		r := bfGet(t, h, key, xpubPath(xpub, strconv.FormatUint(uint64(role), 10), strconv.FormatUint(uint64(index), 10)))
		if r.Code != 200 || json.Unmarshal(r.Body, &got) != nil || got.Address != want {
			t.Fatalf("%s %d/%d: %d %s, want %s", xpub, role, index, r.Code, r.Body, want)
		}
		if role == 2 {
			if _, err := cardano.ParseStakeKey(got.Address, n.Mainnet); err != nil {
				t.Errorf("%s: not a stake address of %s", got.Address, net)
			}
		} else if _, err := cardano.ParseAddress(got.Address, n.Mainnet); err != nil {
			t.Errorf("%s: not an address of %s", got.Address, net)
		}
	}
	junk := func() string {
		b := make([]byte, rng.IntN(140)+1)
		for i := range b {
			b[i] = "0123456789abcdefABCDEFxz-+. "[rng.IntN(28)]
		}
		return string(b)
	}
	for range 200 {
		parts := []string{bfXpub, "0", "0"}
		parts[rng.IntN(3)] = junk()
		r := bfGet(t, h, mainnetKey, xpubPath(parts[0], parts[1], parts[2]))
		if r.Code != 200 && r.Code != 400 {
			t.Fatalf("%v: %d %s", parts, r.Code, r.Body)
		}
	}
}

// bfPost sends body to path with a Content-Type (none when empty).
func bfPost(t *testing.T, h http.Handler, path, contentType, body string) bfResponse {
	t.Helper()
	req := httptest.NewRequest(http.MethodPost, httpx.BlockfrostPrefix+path, strings.NewReader(body))
	req.Header.Set("project_id", mainnetKey)
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	w := httptest.NewRecorder()
	h.ServeHTTP(w, req)
	r := bfResponse{Code: w.Code, Header: w.Header(), Body: w.Body.Bytes()}
	checkResponse(t, req, []byte(body), w)
	checkBlockfrost(t, req, r)
	return r
}

const noEvaluator = "Transaction evaluation is not available: syncgate has no Plutus script evaluator"

// Evaluation is refused with 501 once the request is well formed; a
// malformed one is refused first, for what is wrong with it.
func TestBlockfrostEvaluate(t *testing.T) {
	h := utilsServer(t)
	vectors := loadSubmitVectors(t)
	tx := vectors.Vectors[16] // the Plutus transaction with collateral and reference inputs
	if tx.ID != "blockfrost-1a43e381a072" {
		t.Fatalf("vector order changed: %s", tx.ID)
	}
	raw, _ := hex.DecodeString(tx.CborHex)
	expect := func(r bfResponse, code int, msg string) {
		t.Helper()
		if e := r.errorOf(t); r.Code != code || !strings.HasPrefix(e.Message, msg) {
			t.Errorf("%d %+v, want %d %q", r.Code, e, code, msg)
		}
	}
	for _, body := range []string{tx.CborHex, strings.ToUpper(tx.CborHex) + "\n", base64.StdEncoding.EncodeToString(raw),
		base64.RawStdEncoding.EncodeToString(raw), string(raw)} {
		for _, q := range []string{"", "?version=5", "?version=6"} {
			r := bfPost(t, h, "/utils/txs/evaluate"+q, "application/cbor", body)
			expect(r, 501, noEvaluator)
			if e := r.errorOf(t); e.Error != "Not Implemented" {
				t.Errorf("501 named %q", e.Error)
			}
		}
	}
	expect(bfPost(t, h, "/utils/txs/evaluate", "application/cbor; charset=utf-8", tx.CborHex), 501, noEvaluator)
	for _, ct := range []string{"", "application/json", "text/plain", "application/cbor-seq", "nonsense;;"} {
		expect(bfPost(t, h, "/utils/txs/evaluate", ct, tx.CborHex), 400, "Invalid Content-Type: must be application/cbor")
	}
	for _, q := range []string{"?version=7", "?version=", "?version=five", "?version=5&version=6"} {
		expect(bfPost(t, h, "/utils/txs/evaluate"+q, "application/cbor", tx.CborHex), 400, "Invalid version: must be 5 or 6")
	}
	expect(bfPost(t, h, "/utils/txs/evaluate", "application/cbor", ""), 400, "Invalid transaction: empty")
	expect(bfPost(t, h, "/utils/txs/evaluate", "application/cbor", "not a transaction!"), 400, "Invalid transaction: neither CBOR, hex nor base64")
	expect(bfPost(t, h, "/utils/txs/evaluate", "application/cbor", tx.CborHex[:len(tx.CborHex)-2]), 400, "Invalid transaction:")
	for _, neg := range vectors.Negative {
		if _, err := node.DecodeTxHex(neg.CborHex); neg.CborHex != "" && err != nil { // one is well formed, only spent
			expect(bfPost(t, h, "/utils/txs/evaluate", "application/cbor", neg.CborHex), 400, "Invalid transaction:")
		}
	}
	expect(bfPost(t, h, "/utils/txs/evaluate", "application/cbor", strings.Repeat("00", 40<<10)), 413, "Request body too large")

	// With an additional UTxO set, in Ogmios v5's shape or v6's.
	v5 := `[[{"txId":"` + strings.Repeat("ab", 32) + `","index":0},{"address":"addr1x","value":{"coins":2000000,"assets":{}}}]]`
	v6 := `[[{"transaction":{"id":"` + strings.Repeat("ab", 32) + `"},"index":1},{"address":"addr1x","value":{"ada":{"lovelace":2000000}}}]]`
	for _, set := range []string{"", `,"additionalUtxoSet":null`, `,"additionalUtxoSet":[]`, `,"additionalUtxoSet":` + v5, `,"additionalUtxoSet":` + v6} {
		for _, ct := range []string{"application/json", ""} {
			expect(bfPost(t, h, "/utils/txs/evaluate/utxos", ct, `{"cbor":"`+tx.CborHex+`"`+set+`}`), 501, noEvaluator)
		}
	}
	expect(bfPost(t, h, "/utils/txs/evaluate/utxos", "application/json", `{"cbor":"`+base64.StdEncoding.EncodeToString(raw)+`"}`), 501, noEvaluator)
	expect(bfPost(t, h, "/utils/txs/evaluate/utxos", "application/cbor", `{"cbor":"`+tx.CborHex+`"}`), 400, "Invalid Content-Type: must be application/json")
	for body, msg := range map[string]string{
		"":                "Invalid JSON body",
		"[]":              "Invalid JSON body",
		`{"cbor":`:        "Invalid JSON body",
		`{}`:              "Invalid cbor: must be a string",
		`{"cbor":5}`:      "Invalid cbor: must be a string",
		`{"cbor":null}`:   "Invalid cbor: must be a string",
		`{"cbor":"z!"}`:   "Invalid transaction: neither CBOR, hex nor base64",
		`{"cbor":"8400"}`: "Invalid transaction:",
		`{"cbor":"` + tx.CborHex + `","additionalUtxoSet":{}}`:                                                      "Invalid additionalUtxoSet:",
		`{"cbor":"` + tx.CborHex + `","additionalUtxoSet":[[{"txId":"aa","index":0}]]}`:                             "Invalid additionalUtxoSet:",
		`{"cbor":"` + tx.CborHex + `","additionalUtxoSet":[[1,2]]}`:                                                 "Invalid additionalUtxoSet:",
		`{"cbor":"` + tx.CborHex + `","additionalUtxoSet":[[{"txId":"aa","index":-1},{"address":"a","value":{}}]]}`: "Invalid additionalUtxoSet:",
		`{"cbor":"` + tx.CborHex + `","additionalUtxoSet":[[{"index":0},{"address":"a","value":{}}]]}`:              "Invalid additionalUtxoSet:",
		`{"cbor":"` + tx.CborHex + `","additionalUtxoSet":[[{"txId":"aa","index":0},{"address":5,"value":{}}]]}`:    "Invalid additionalUtxoSet:",
		`{"cbor":"` + tx.CborHex + `","additionalUtxoSet":[[{"txId":"aa","index":0},{"address":"a"}]]}`:             "Invalid additionalUtxoSet:",
		`{"cbor":"` + tx.CborHex + `","additionalUtxoSet":[null]}`:                                                  "Invalid additionalUtxoSet:",
	} {
		r := bfPost(t, h, "/utils/txs/evaluate/utxos", "application/json", body)
		if e := r.errorOf(t); r.Code != 400 || !strings.HasPrefix(e.Message, msg) {
			t.Errorf("%.80s: %d %+v, want 400 %q", body, r.Code, e, msg)
		}
	}
	// Without a key: the key is checked first.
	req := httptest.NewRequest(http.MethodPost, "/api/v0/utils/txs/evaluate", strings.NewReader(tx.CborHex))
	req.Header.Set("Content-Type", "application/cbor")
	w := httptest.NewRecorder()
	h.ServeHTTP(w, req)
	if w.Code != 403 {
		t.Errorf("no key: %d %s", w.Code, w.Body)
	}
}
