package handlers

import (
	"bytes"
	"context"
	"encoding/hex"
	"encoding/json"
	"github.com/syncgate/syncgate/handlers/httpx"
	"github.com/syncgate/syncgate/internal/cardano"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/syncgate/syncgate/auth"
	"github.com/syncgate/syncgate/config"
	"github.com/syncgate/syncgate/dbsync"
	"github.com/syncgate/syncgate/node"
	"github.com/syncgate/syncgate/node/nodetest"
)

// submitCreds is a stand-in CredentialAuthenticator until the admin store
// lands: each key maps to a caller on one network.
type submitCreds map[string]auth.Caller

func (m submitCreds) Authenticate(_ context.Context, key string) (auth.Caller, error) {
	c, ok := m[key]
	if !ok {
		return auth.Caller{}, auth.ErrInvalidKey
	}
	return c, nil
}

const (
	submitKeyMainnet = "sgk1_mainnet"
	submitKeyPreprod = "sgk1_preprod"
	submitKeyPreview = "sgk1_preview"
)

var submitCallers = submitCreds{
	submitKeyMainnet: {NetworkID: 0},
	submitKeyPreview: {NetworkID: 1},
	submitKeyPreprod: {NetworkID: 2},
}

// submitBody is the httpx.Envelope with the details an error may carry.
type submitBody struct {
	Success bool   `json:"success"`
	Error   string `json:"error"`
	Data    *struct {
		TxHash string `json:"txHash"`
	} `json:"data"`
	Details *struct {
		ReasonCBOR string `json:"reasonCbor"`
	} `json:"details"`
}

func submitPost(t *testing.T, h http.Handler, key, payload string) (int, submitBody) {
	t.Helper()
	req := httptest.NewRequest("POST", "/v1/tx/submit", strings.NewReader(payload))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+key)
	w := httptest.NewRecorder()
	serveChecked(t, h, w, req)
	var b submitBody
	if err := json.Unmarshal(w.Body.Bytes(), &b); err != nil {
		t.Fatalf("body is not JSON: %q", w.Body.String())
	}
	if ct := w.Header().Get("Content-Type"); ct != httpx.ContentType {
		t.Errorf("Content-Type %q", ct)
	}
	return w.Code, b
}

func submitJSON(txHex string, skip any) string {
	m := map[string]any{"tx": txHex}
	if skip != nil {
		m["skipValidation"] = skip
	}
	b, _ := json.Marshal(m)
	return string(b)
}

// submitVectors is node/testdata/tx-cbor.json (a copy of the shared vectors).
type submitVectors struct {
	Vectors []struct {
		ID      string `json:"id"`
		TxHash  string `json:"tx_hash"`
		CborHex string `json:"cbor_hex"`
	} `json:"vectors"`
	Negative []struct {
		ID        string `json:"id"`
		CborHex   string `json:"cbor_hex"`
		BodyBytes string `json:"body_bytes_hex"`
		BodyText  string `json:"body_text"`
		TxHash    string `json:"tx_hash_computed"`
	} `json:"negative_cases"`
}

func loadSubmitVectors(t *testing.T) submitVectors {
	t.Helper()
	raw, err := os.ReadFile("../node/testdata/tx-cbor.json")
	if err != nil {
		t.Fatal(err)
	}
	var v submitVectors
	if err := json.Unmarshal(raw, &v); err != nil {
		t.Fatal(err)
	}
	if len(v.Vectors) != 23 || len(v.Negative) != 11 {
		t.Fatalf("vectors: %d valid, %d negative", len(v.Vectors), len(v.Negative))
	}
	return v
}

// unqueriedDB stands for a served network whose db-sync cannot be reached:
// with skipValidation=true a submission does not need it (whether the
// transaction is already in a block stays unknown, and the node decides).
func unqueriedDB(t testing.TB, n cardano.Network) *dbsync.DB {
	t.Helper()
	db, err := dbsync.New(config.NetworkConfig{Network: n, DBSyncURL: "postgres://postgres@127.0.0.1:1/none?sslmode=disable"},
		dbsync.Options{ServerOptions: dbsync.ServerOptions{Log: quietLog}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(db.Close)
	return db
}

// submitServer serves mainnet and preprod, each with its own fake node.
func submitServer(t *testing.T, opts node.Options) (*Server, *nodetest.Node, *nodetest.Node) {
	t.Helper()
	mainnet, _ := cardano.NetworkByName("mainnet")
	preprod, _ := cardano.NetworkByName("preprod")
	m := nodetest.Start(t, mainnet.Magic)
	p := nodetest.Start(t, preprod.Magic)
	s := New(Deps{
		Networks:    map[string]*dbsync.DB{"mainnet": unqueriedDB(t, mainnet), "preprod": unqueriedDB(t, preprod)},
		Credentials: submitCallers,
		Submitter:   node.NewSubmitter(map[string]string{"mainnet": m.Socket, "preprod": p.Socket}, opts),
	})
	return s, m, p
}

func TestSubmitTxVectors(t *testing.T) {
	s, m, _ := submitServer(t, node.Options{})
	v := loadSubmitVectors(t)
	for _, x := range v.Vectors {
		t.Run(x.ID, func(t *testing.T) {
			before := len(m.Received())
			code, b := submitPost(t, s.Handler(), submitKeyMainnet, submitJSON(x.CborHex, true))
			if code != 200 || !b.Success || b.Data == nil || b.Data.TxHash != x.TxHash {
				t.Fatalf("got %d %+v, want 200 txHash %s", code, b, x.TxHash)
			}
			got := m.Received()
			if len(got) != before+1 {
				t.Fatalf("node received %d submissions, want %d", len(got), before+1)
			}
			last := got[len(got)-1]
			tx, _ := node.DecodeTxHex(x.CborHex)
			if hex.EncodeToString(last.Tx) != x.CborHex || last.EraID != tx.EraID {
				t.Errorf("node got era %d and other bytes; want era %d and the tx as sent", last.EraID, tx.EraID)
			}
		})
	}
	// The already-spent vector is a well-formed transaction: it reaches the node.
	for _, n := range v.Negative {
		if n.ID == "valid-cbor-already-spent" {
			code, b := submitPost(t, s.Handler(), submitKeyMainnet, submitJSON(n.CborHex, true))
			if code != 200 || b.Data == nil || b.Data.TxHash != n.TxHash {
				t.Errorf("already-spent vector: got %d %+v", code, b)
			}
		}
	}
}

func TestSubmitTxInvalid(t *testing.T) {
	s, m, _ := submitServer(t, node.Options{})
	v := loadSubmitVectors(t)
	neg := map[string]string{}
	for _, n := range v.Negative {
		h := n.CborHex
		if n.BodyBytes != "" {
			h = n.BodyBytes
		}
		if n.ID == "hex-text-instead-of-binary" {
			h = hex.EncodeToString([]byte(n.BodyText)) // hex of the hex text: our API's version of the mistake
		}
		neg[n.ID] = h
	}
	valid := v.Vectors[0].CborHex
	cases := []struct {
		name       string
		body       string
		wantStatus int
		wantError  string
	}{
		{"vector ascii-invalid-cbor", submitJSON(neg["ascii-invalid-cbor"], true), 400, "Invalid transaction: not a transaction: expected a CBOR array"},
		{"vector truncated-real-tx", submitJSON(neg["truncated-real-tx"], true), 400, "Invalid transaction: malformed CBOR: unexpected EOF"},
		{"vector trailing-byte", submitJSON(neg["trailing-byte"], true), 400, "Invalid transaction: trailing bytes after the transaction"},
		{"vector empty-body", submitJSON(neg["empty-body"], true), 400, "Invalid transaction: empty"},
		{"vector map-not-array", submitJSON(neg["map-not-array"], true), 400, "Invalid transaction: not a transaction: expected a CBOR array"},
		{"vector lone-break", submitJSON(neg["lone-break"], true), 400, `Invalid transaction: malformed CBOR: unexpected "break" code`},
		{"vector huge-declared-length", submitJSON(neg["huge-declared-length"], true), 400, "Invalid transaction: malformed CBOR: array length 18446744073709551615 is too large, it would cause integer overflow"},
		{"vector reserved-additional-info", submitJSON(neg["reserved-additional-info"], true), 400, "Invalid transaction: malformed CBOR: invalid additional information 28 for type positive integer"},
		{"vector one-element-array", submitJSON(neg["one-element-array"], true), 400, "Invalid transaction: not a transaction: unknown transaction type"},
		{"vector hex-text-instead-of-binary", submitJSON(neg["hex-text-instead-of-binary"], true), 400, "Invalid transaction: not a transaction: expected a CBOR array"},
		{"nearly empty Conway tx", submitJSON("84a0a0f5f6", true), 400, "Invalid transaction: transaction has no inputs"},
		{"not hex", submitJSON("84a0a0f5fz", true), 400, "Invalid transaction: not hex"},
		{"odd hex", submitJSON(valid[:len(valid)-1], true), 400, "Invalid transaction: not hex"},
		{"too large", submitJSON(strings.Repeat("00", node.MaxTxSize+1), true), 400, "Invalid transaction: larger than 16384 bytes"},
		{"validation on, still decoded first", submitJSON("a0", false), 400, "Invalid transaction: not a transaction: expected a CBOR array"},
		{"tx missing", `{"skipValidation":true}`, 400, "Invalid transaction: tx must be a hex string"},
		{"tx null", `{"tx":null}`, 400, "Invalid transaction: tx must be a hex string"},
		{"tx a number", `{"tx":84}`, 400, "Invalid transaction: tx must be a hex string"},
		{"tx an array", `{"tx":["84"]}`, 400, "Invalid transaction: tx must be a hex string"},
		{"skipValidation a string", submitJSON(valid, "true"), 400, "Invalid skipValidation: must be true or false"},
		{"skipValidation a number", submitJSON(valid, 1), 400, "Invalid skipValidation: must be true or false"},
		{"body not JSON", `tx=84a0`, 400, "Invalid JSON body"},
		{"body an array", `["84a0"]`, 400, "Invalid JSON body"},
		{"body empty", ``, 400, "Invalid JSON body"},
		{"body over 64 KiB", submitJSON(strings.Repeat("00", 33<<10), true), 413, "Request body too large"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			code, b := submitPost(t, s.Handler(), submitKeyMainnet, tc.body)
			if code != tc.wantStatus || b.Success || b.Error != tc.wantError {
				t.Fatalf("got %d %q, want %d %q", code, b.Error, tc.wantStatus, tc.wantError)
			}
		})
	}
	if n := len(m.Received()); n != 0 {
		t.Errorf("the node received %d invalid transactions", n)
	}
	// A null skipValidation is the default; with a valid tx it would go on to
	// validation, so check parsing alone here.
	for body, want := range map[string]submitRequest{
		`{"tx":"84","skipValidation":null}`:  {tx: "84"},
		`{"tx":"84"}`:                        {tx: "84"},
		`{"tx":"84","skipValidation":false}`: {tx: "84"},
		`{"tx":"84","skipValidation":true}`:  {tx: "84", skipValidation: true},
		`{"tx":"","other":1}`:                {},
	} {
		if got, err := parseSubmitRequestFrom(t, body); err != nil || got != want {
			t.Errorf("%s: got %+v %v, want %+v", body, got, err, want)
		}
	}
}

// parseSubmitRequestFrom runs parseSubmitRequest on a body.
func parseSubmitRequestFrom(t *testing.T, body string) (submitRequest, error) {
	t.Helper()
	var req submitRequest
	var err error
	s := New(Deps{})
	s.engine.POST("/test-parse", func(c *gin.Context) { req, err = parseSubmitRequest(c) })
	r := httptest.NewRequest("POST", "/test-parse", strings.NewReader(body))
	s.Handler().ServeHTTP(httptest.NewRecorder(), r)
	return req, err
}

func TestSubmitTxNodeFailures(t *testing.T) {
	tx := loadSubmitVectors(t).Vectors[14] // blockfrost-e781decc5945, Conway
	if tx.ID != "blockfrost-e781decc5945" {
		t.Fatalf("vector order changed: %s", tx.ID)
	}
	txid, _ := hex.DecodeString("279184037d249e397d97293738370756da559718fcdefae9924834840046b37b")
	badInputs := nodetest.ConwayBadInputs(txid, 1)
	em := nodetest.EraMismatch(6, "Conway", 5, "Babbage")
	emCBOR, _ := em.(interface{ MarshalCBOR() ([]byte, error) }).MarshalCBOR()

	s, m, _ := submitServer(t, node.Options{SubmitTimeout: 200 * time.Millisecond})
	cases := []struct {
		name       string
		setup      func()
		wantStatus int
		wantError  string
		wantCBOR   string
	}{
		{"Conway bad inputs", func() { m.Reject(badInputs) }, 400,
			"Transaction rejected by node: ConwayUtxowFailure (UtxoFailure (BadInputsUTxO 258([[h'279184037d249e397d97293738370756da559718fcdefae9924834840046b37b', 1]])))",
			hex.EncodeToString(badInputs)},
		{"era mismatch", func() { m.Reject(em) }, 400,
			"Transaction rejected by node: The era of the node and the tx do not match. The node is running in the Conway era, but the transaction is for the Babbage era.",
			hex.EncodeToString(emCBOR)},
		{"silent node", m.Silent, 504, "Node did not answer in time", ""},
		{"node gone", m.Close, 503, "Transaction submission is unavailable for network mainnet", ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			tc.setup()
			code, b := submitPost(t, s.Handler(), submitKeyMainnet, submitJSON(tx.CborHex, true))
			if code != tc.wantStatus || b.Success || b.Error != tc.wantError {
				t.Fatalf("got %d %q, want %d %q", code, b.Error, tc.wantStatus, tc.wantError)
			}
			switch {
			case tc.wantCBOR == "" && b.Details != nil:
				t.Errorf("unexpected details %+v", b.Details)
			case tc.wantCBOR != "" && (b.Details == nil || b.Details.ReasonCBOR != tc.wantCBOR):
				t.Errorf("details %+v, want reasonCbor %s", b.Details, tc.wantCBOR)
			}
		})
	}
}

func TestSubmitTxUnavailable(t *testing.T) {
	mainnet, _ := cardano.NetworkByName("mainnet")
	tx := loadSubmitVectors(t).Vectors[14].CborHex
	served := map[string]*dbsync.DB{"mainnet": unqueriedDB(t, mainnet)}
	cases := []struct {
		name       string
		submitter  TxSubmitter
		key        string
		wantStatus int
		wantError  string
	}{
		{"no submitter at all", nil, submitKeyMainnet, 503, "Transaction submission is unavailable for network mainnet"},
		{"no socket for the network", node.NewSubmitter(nil, node.Options{}), submitKeyMainnet, 503, "Transaction submission is unavailable for network mainnet"},
		{"socket missing", node.NewSubmitter(map[string]string{"mainnet": "/nonexistent/sg/node.socket"}, node.Options{}), submitKeyMainnet, 503, "Transaction submission is unavailable for network mainnet"},
		{"network not served", node.NewSubmitter(nil, node.Options{}), submitKeyPreview, 503, "Network preview is not served by this deployment"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s := New(Deps{Networks: served, Credentials: submitCallers, Submitter: tc.submitter})
			code, b := submitPost(t, s.Handler(), tc.key, submitJSON(tx, true))
			if code != tc.wantStatus || b.Success || b.Error != tc.wantError {
				t.Fatalf("got %d %q, want %d %q", code, b.Error, tc.wantStatus, tc.wantError)
			}
		})
	}
}

// The credential's network decides which node gets the transaction.
func TestSubmitTxRoutesByNetwork(t *testing.T) {
	s, m, p := submitServer(t, node.Options{})
	v := loadSubmitVectors(t)
	preprodTx, mainnetTx := v.Vectors[17], v.Vectors[14]
	if preprodTx.ID != "blockfrost-6aa2246eed20" {
		t.Fatalf("vector order changed: %s", preprodTx.ID)
	}
	code, b := submitPost(t, s.Handler(), submitKeyPreprod, submitJSON(preprodTx.CborHex, true))
	if code != 200 || b.Data == nil || b.Data.TxHash != preprodTx.TxHash {
		t.Fatalf("preprod: got %d %+v", code, b)
	}
	if len(p.Received()) != 1 || len(m.Received()) != 0 {
		t.Fatalf("after preprod: preprod node %d, mainnet node %d", len(p.Received()), len(m.Received()))
	}
	code, _ = submitPost(t, s.Handler(), submitKeyMainnet, submitJSON(mainnetTx.CborHex, true))
	if code != 200 || len(p.Received()) != 1 || len(m.Received()) != 1 {
		t.Fatalf("after mainnet: %d; preprod node %d, mainnet node %d", code, len(p.Received()), len(m.Received()))
	}
	if !bytes.Equal(m.Received()[0].Tx, mustHex(t, mainnetTx.CborHex)) || !bytes.Equal(p.Received()[0].Tx, mustHex(t, preprodTx.CborHex)) {
		t.Error("a node received the other network's transaction")
	}
}

func mustHex(t *testing.T, s string) []byte {
	t.Helper()
	b, err := hex.DecodeString(s)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// BenchmarkSubmitTx is one whole POST /v1/tx/submit with skipValidation:
// JSON, hex, decode and hash, then a node connection per request to the fake
// node, which accepts.
func BenchmarkSubmitTx(b *testing.B) {
	mainnet, _ := cardano.NetworkByName("mainnet")
	n := nodetest.Start(b, mainnet.Magic)
	s := New(Deps{
		Networks:    map[string]*dbsync.DB{"mainnet": unqueriedDB(b, mainnet)},
		Credentials: submitCallers,
		Submitter:   node.NewSubmitter(map[string]string{"mainnet": n.Socket}, node.Options{}),
		Log:         slog.New(slog.DiscardHandler),
	})
	raw, err := os.ReadFile("../node/testdata/tx-cbor.json")
	if err != nil {
		b.Fatal(err)
	}
	var v submitVectors
	if err := json.Unmarshal(raw, &v); err != nil {
		b.Fatal(err)
	}
	body := submitJSON(v.Vectors[14].CborHex, true)
	h := s.Handler()
	b.ReportAllocs()
	for b.Loop() {
		req := httptest.NewRequest("POST", "/v1/tx/submit", strings.NewReader(body))
		req.Header.Set("Authorization", "Bearer "+submitKeyMainnet)
		w := httptest.NewRecorder()
		h.ServeHTTP(w, req)
		if w.Code != 200 {
			b.Fatalf("status %d: %s", w.Code, w.Body.String())
		}
	}
}
