package handlers

import (
	"bytes"
	"encoding/hex"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/blinklabs-io/gouroboros/protocol/localtxmonitor"

	"github.com/syncgate/syncgate/dbsync"
	"github.com/syncgate/syncgate/handlers/httpx"
	"github.com/syncgate/syncgate/internal/cardano"
	"github.com/syncgate/syncgate/node"
	"github.com/syncgate/syncgate/node/nodetest"
)

// bfSubmit posts body to /api/v0/tx/submit with the content type (none
// when empty) and key. Answers Blockfrost's document describes (200, 400,
// 425) are checked against it; the others (413, 503, 504) are ours.
func bfSubmit(t *testing.T, h http.Handler, key, contentType string, body []byte) bfResponse {
	t.Helper()
	req := httptest.NewRequest(http.MethodPost, httpx.BlockfrostPrefix+"/tx/submit", bytes.NewReader(body))
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	req.Header.Set("project_id", key)
	w := httptest.NewRecorder()
	switch h.ServeHTTP(w, req); w.Code {
	case 200, 400, 425:
		checkResponse(t, req, body, w)
	}
	r := bfResponse{Code: w.Code, Header: w.Header(), Body: w.Body.Bytes()}
	checkBlockfrost(t, req, r)
	return r
}

// A transaction's raw CBOR reaches the node as sent and is answered with
// its id as a JSON string; a node's refusal is a 400 with its reason.
func TestBlockfrostSubmitVectors(t *testing.T) {
	s, m, _ := submitServer(t, node.Options{})
	for _, x := range loadSubmitVectors(t).Vectors {
		raw := mustHex(t, x.CborHex)
		r := bfSubmit(t, s.Handler(), submitKeyMainnet, "application/cbor", raw)
		if r.Code != 200 || string(r.Body) != `"`+x.TxHash+`"`+"\n" {
			t.Fatalf("%s: %d %s, want %q", x.ID, r.Code, r.Body, x.TxHash)
		}
		got := m.Received()
		if last := got[len(got)-1]; !bytes.Equal(last.Tx, raw) {
			t.Fatalf("%s: the node got other bytes", x.ID)
		}
	}
	tx := loadSubmitVectors(t).Vectors[14]
	txid, _ := hex.DecodeString("279184037d249e397d97293738370756da559718fcdefae9924834840046b37b")
	m.Reject(nodetest.ConwayBadInputs(txid, 1))
	r := bfSubmit(t, s.Handler(), submitKeyMainnet, "application/cbor", mustHex(t, tx.CborHex))
	want := "Transaction rejected by node: ConwayUtxowFailure (UtxoFailure (BadInputsUTxO 258([[h'279184037d249e397d97293738370756da559718fcdefae9924834840046b37b', 1]])))"
	if e := r.errorOf(t); r.Code != 400 || e.Error != "Bad Request" || e.Message != want {
		t.Fatalf("rejected: %d %+v", r.Code, e)
	}
}

// Bodies that are not a transaction's bytes are refused with what is
// wrong, before the node is asked; a transaction-sized body passes the
// body limit (only the decoder's size rule refuses it), a far bigger one
// does not.
func TestBlockfrostSubmitRefusals(t *testing.T) {
	s, m, _ := submitServer(t, node.Options{})
	valid := mustHex(t, loadSubmitVectors(t).Vectors[0].CborHex)
	const contentType = "Invalid Content-Type: send the transaction's raw CBOR bytes with Content-Type: application/cbor"
	cases := []struct {
		name, contentType string
		body              []byte
		status            int
		message           string
	}{
		{"JSON body as /v1 takes it", "application/json", []byte(submitJSON(hex.EncodeToString(valid), true)), 400, contentType},
		{"no content type", "", valid, 400, contentType},
		{"text", "text/plain", valid, 400, contentType},
		{"octet stream", "application/octet-stream", valid, 400, contentType},
		{"JSON sent as CBOR", "application/cbor", []byte(`{"tx":"84a4"}`), 400, "Invalid transaction: the body is JSON; send the transaction's raw CBOR bytes"},
		{"hex text", "application/cbor", []byte(hex.EncodeToString(valid)), 400, "Invalid transaction: the body is hex text; send the raw CBOR bytes it encodes"},
		{"empty", "application/cbor", nil, 400, "Invalid transaction: empty body (send the transaction's raw CBOR bytes)"},
		{"not a transaction", "application/cbor", []byte{0xa0}, 400, "Invalid transaction: not a transaction: expected a CBOR array"},
		{"truncated", "application/cbor", valid[:len(valid)-3], 400, "Invalid transaction: malformed CBOR: unexpected EOF"},
		{"trailing byte", "application/cbor", append(append([]byte{}, valid...), 0), 400, "Invalid transaction: trailing bytes after the transaction"},
		{"one byte over the size limit", "application/cbor; charset=binary", bytes.Repeat([]byte{0x80}, node.MaxTxSize+1), 400, "Invalid transaction: larger than 16384 bytes"},
		{"over the body limit", "application/cbor", bytes.Repeat([]byte{0x80}, 65<<10), 413, "Request body too large"},
	}
	for _, tc := range cases {
		r := bfSubmit(t, s.Handler(), submitKeyMainnet, tc.contentType, tc.body)
		if e := r.errorOf(t); r.Code != tc.status || e.Message != tc.message {
			t.Errorf("%s: %d %q, want %d %q", tc.name, r.Code, e.Message, tc.status, tc.message)
		}
	}
	if n := len(m.Received()); n != 0 {
		t.Errorf("the node received %d of them", n)
	}
	// The content type's parameters and case do not matter.
	if r := bfSubmit(t, s.Handler(), submitKeyMainnet, "Application/CBOR; q=1", valid); r.Code != 200 {
		t.Errorf("Application/CBOR: %d %s", r.Code, r.Body)
	}
}

// No node for the network, or one that is gone: 503; one that does not
// answer: 504, unless its mempool has no room for the transaction, which
// is Blockfrost's 425.
func TestBlockfrostSubmitNodeFailures(t *testing.T) {
	mainnet, _ := cardano.NetworkByName("mainnet")
	tx := vectorTx(t, "blockfrost-e781decc5945")
	served := map[string]*dbsync.DB{"mainnet": unqueriedDB(t, mainnet)}
	if r := bfSubmit(t, New(Deps{Networks: served, Credentials: submitCallers}).Handler(), submitKeyMainnet, "application/cbor", tx.CBOR); r.Code != 503 ||
		r.errorOf(t).Message != "Transaction submission is unavailable for network mainnet" {
		t.Errorf("no node: %d %s", r.Code, r.Body)
	}
	n := nodetest.Start(t, mainnet.Magic)
	sockets := map[string]string{"mainnet": n.Socket}
	s := New(Deps{Networks: served, Credentials: submitCallers, Log: quietLog,
		Submitter: node.NewSubmitter(sockets, node.Options{SubmitTimeout: 200 * time.Millisecond}),
		Mempool:   node.NewMempool(sockets, freshMempool)})
	n.Silent()
	other := vectorTx(t, "pallas-shelley1")
	roomy := nodetest.Mempool{Slot: 1, Capacity: 1 << 20, Txs: []localtxmonitor.TxAndEraId{nodetest.MempoolTx(other.CBOR)}}
	n.SetMempool(roomy)
	if r := bfSubmit(t, s.Handler(), submitKeyMainnet, "application/cbor", tx.CBOR); r.Code != 504 || r.errorOf(t).Message != "Node did not answer in time" {
		t.Errorf("silent node with room in its mempool: %d %s", r.Code, r.Body)
	}
	full := roomy
	full.Capacity = uint32(len(other.CBOR) + len(tx.CBOR) - 1)
	n.SetMempool(full)
	r := bfSubmit(t, s.Handler(), submitKeyMainnet, "application/cbor", tx.CBOR)
	if e := r.errorOf(t); r.Code != 425 || e.Error != "Mempool Full" || e.Message != "Mempool is full, please try resubmitting again later." {
		t.Errorf("silent node with a full mempool: %d %+v", r.Code, e)
	}
	n.Close()
	if r := bfSubmit(t, s.Handler(), submitKeyMainnet, "application/cbor", tx.CBOR); r.Code != 503 {
		t.Errorf("node gone: %d %s", r.Code, r.Body)
	}
}

// The dialect's submission is /v1's: a transaction sent through one and
// then the other reaches the node once, whichever goes first, and
// /v1/tx/status follows it; /api/v0/txs/{hash} is a 404 until a block
// holds it (Lucid's awaitTx), then its block.
func TestBlockfrostSubmitIsV1Submission(t *testing.T) {
	e := newStatusEnv(t, 500*time.Millisecond)
	h := e.srv.Handler()
	first, second := vectorTx(t, "gouroboros-shelleyTxCborHex"), vectorTx(t, "blockfrost-e781decc5945")

	if r := bfSubmit(t, h, mainnetKey, "application/cbor", first.CBOR); r.Code != 200 || string(r.Body) != `"`+first.Hash+`"`+"\n" {
		t.Fatalf("first through /api/v0: %d %s", r.Code, r.Body)
	}
	if _, b := e.status(e.srv, first.Hash); b.Data.Status != "in_mempool" || b.Data.SubmittedAt == nil {
		t.Fatalf("status after /api/v0: %+v", b.Data)
	}
	if code, b := e.submit(e.srv, hex.EncodeToString(first.CBOR), true); code != 200 || b.Data == nil || b.Data.Status != "in_mempool" {
		t.Fatalf("first again through /v1: %d %+v", code, b)
	}
	if code, b := e.submit(e.srv, hex.EncodeToString(second.CBOR), true); code != 200 || b.Data == nil || b.Data.Status != "submitted" {
		t.Fatalf("second through /v1: %d %+v", code, b)
	}
	if r := bfSubmit(t, h, mainnetKey, "application/cbor", second.CBOR); r.Code != 200 || string(r.Body) != `"`+second.Hash+`"`+"\n" {
		t.Fatalf("second again through /api/v0: %d %s", r.Code, r.Body)
	}
	for _, tx := range []*node.Tx{first, second} {
		if n := e.received(tx.Hash); n != 1 {
			t.Errorf("%s reached the node %d times, want once", tx.Hash, n)
		}
	}

	// Polled until a block holds it.
	for range 3 {
		if r := bfGet(t, h, mainnetKey, "/txs/"+first.Hash); r.Code != 404 {
			t.Fatalf("before its block: %d %s", r.Code, r.Body)
		}
	}
	f := e.follower(20, e.takeMempool)
	if _, err := f.AppendBlock(t.Context()); err != nil {
		t.Fatal(err)
	}
	e.db.ForgetTips() // the tip memo would lag the block by up to a second
	var block string
	if err := e.raw.QueryRow(`SELECT encode(b.hash, 'hex') FROM tx JOIN block b ON b.id = tx.block_id WHERE tx.hash = decode($1, 'hex')`, first.Hash).Scan(&block); err != nil {
		t.Fatal(err)
	}
	r := bfGet(t, h, mainnetKey, "/txs/"+first.Hash)
	if r.Code != 200 || !strings.Contains(string(r.Body), `"block":"`+block+`"`) {
		t.Fatalf("in its block %s: %d %s", block, r.Code, r.Body)
	}
}

// A transaction the node took from this instance is in its mempool
// answers at once, though the snapshot read before is young enough to be
// shared still (a client submits, then asks /mempool/{hash}).
func TestBlockfrostMempoolShowsOwnSubmission(t *testing.T) {
	e := newStatusEnv(t, 500*time.Millisecond)
	e.mempoolOpts = node.MempoolOptions{MaxAge: time.Minute}
	h := e.instance(e.redis).Handler()
	tx := vectorTx(t, "gouroboros-shelleyTxCborHex")
	if r := bfGet(t, h, mainnetKey, "/mempool/"+tx.Hash); r.Code != 404 {
		t.Fatalf("before its submission: %d %s", r.Code, r.Body)
	}
	if r := bfSubmit(t, h, mainnetKey, "application/cbor", tx.CBOR); r.Code != 200 {
		t.Fatalf("submit: %d %s", r.Code, r.Body)
	}
	if r := bfGet(t, h, mainnetKey, "/mempool/"+tx.Hash); r.Code != 200 || !strings.Contains(string(r.Body), tx.Hash) {
		t.Fatalf("right after its submission: %d %s", r.Code, r.Body)
	}
}
