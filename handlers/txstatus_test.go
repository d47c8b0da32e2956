package handlers

import (
	"context"
	"encoding/hex"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/syncgate/syncgate/internal/cardano"
	"github.com/syncgate/syncgate/internal/devtools/chaingen"
	"github.com/syncgate/syncgate/internal/service/txstatus"
	"github.com/syncgate/syncgate/node"
	"github.com/syncgate/syncgate/node/nodetest"
)

// TestTxStatusTransitions follows one real transaction through every
// status, all through the HTTP API, with the fake node's LocalTxMonitor as
// the mempool and the chain follower as db-sync: unknown → submitted →
// in_mempool (a resubmission does not reach the node) → in_block (the
// follower's block takes the node's mempool; resubmitting it, even with the
// input check, answers in_block) → confirmations grow → rolled_back (the
// blocks are rolled back, the node no longer holds it) → in_mempool (the
// node takes it back) → in_block again while the node still holds it →
// in_mempool once more after that block is rolled back (the node still
// holds it) → rolled_back (the node drops it) → expired (the chain passes
// its TTL). Each answer is checked against db-sync read independently.
func TestTxStatusTransitions(t *testing.T) {
	e := newStatusEnv(t, 500*time.Millisecond)
	ctx := context.Background()
	tx := vectorTx(t, "gouroboros-shelleyTxCborHex") // TTL 4 507 000, above the seeded tip
	txHex := hex.EncodeToString(tx.CBOR)

	expect := func(step, status string, conf int64) txStatusBody {
		t.Helper()
		code, b := e.status(e.srv, tx.Hash)
		if code != 200 || !b.Success || b.Data.TxHash != tx.Hash || b.Data.Status != status {
			t.Fatalf("%s: got %d %+v, want %s", step, code, b, status)
		}
		var tipSlot, tipNo int64
		var tipHash string
		if err := e.raw.QueryRow(`SELECT slot_no, encode(hash, 'hex'), block_no FROM block WHERE slot_no IS NOT NULL ORDER BY slot_no DESC LIMIT 1`).Scan(&tipSlot, &tipHash, &tipNo); err != nil {
			t.Fatal(err)
		}
		if b.Data.Tip.Slot != tipSlot || b.Data.Tip.Hash != tipHash || b.Data.Mempool != "ok" {
			t.Fatalf("%s: tip %+v mempool %s, want %d %s ok", step, b.Data.Tip, b.Data.Mempool, tipSlot, tipHash)
		}
		if status == "in_block" {
			var blockHash string
			var blockNo, slot int64
			if err := e.raw.QueryRow(`SELECT encode(b.hash, 'hex'), b.block_no, b.slot_no FROM tx JOIN block b ON b.id = tx.block_id
				WHERE tx.hash = decode($1, 'hex')`, tx.Hash).Scan(&blockHash, &blockNo, &slot); err != nil {
				t.Fatal(err)
			}
			if b.Data.Block == nil || b.Data.Block.Hash != blockHash || b.Data.Block.Height != blockNo || b.Data.Block.Slot != slot ||
				b.Data.Confirmations == nil || *b.Data.Confirmations != tipNo-blockNo+1 || *b.Data.Confirmations != conf {
				t.Fatalf("%s: block %+v confirmations %v, want %s %d %d, %d", step, b.Data.Block, b.Data.Confirmations, blockHash, blockNo, slot, conf)
			}
		} else if b.Data.Block != nil || b.Data.Confirmations != nil {
			t.Fatalf("%s: block fields on %s", step, status)
		}
		return b
	}
	submit := func(step string, skip bool, want string, received int) {
		t.Helper()
		code, b := e.submit(e.srv, txHex, skip)
		if code != 200 || b.Data == nil || b.Data.TxHash != tx.Hash || b.Data.Status != want {
			t.Fatalf("%s: got %d %+v, want 200 %s", step, code, b, want)
		}
		if n := e.received(tx.Hash); n != received {
			t.Fatalf("%s: the node received it %d times, want %d", step, n, received)
		}
	}
	held := func(step string, want bool) {
		t.Helper()
		code, _ := e.get(e.srv, "/v1/mempool/"+tx.Hash)
		if (code == 200) != want {
			t.Fatalf("%s: GET /v1/mempool/:hash %d, want held %v", step, code, want)
		}
	}
	appendBlocks := func(f *chaingen.Follower, n int) {
		t.Helper()
		for i := 0; i < n; i++ {
			if _, err := f.AppendBlock(ctx); err != nil {
				t.Fatal(err)
			}
		}
	}

	b := expect("before any submission", "unknown", 0)
	if b.Data.SubmittedAt != nil || b.Data.TTLSlot != nil {
		t.Fatalf("log fields before any submission: %+v", b.Data)
	}
	submit("first submission", true, "submitted", 1)
	held("submitted", true)
	b = expect("submitted", "in_mempool", 0)
	if b.Data.SubmittedAt == nil || time.Since(*b.Data.SubmittedAt) > time.Minute || b.Data.TTLSlot == nil || *b.Data.TTLSlot != 4507000 {
		t.Fatalf("log fields: submitted_at %v ttl_slot %v", b.Data.SubmittedAt, b.Data.TTLSlot)
	}
	submit("resubmission from the mempool", true, "in_mempool", 1)

	// The follower's next block takes what the node holds (only while
	// takeFromNode is set; a rolled-back block's transactions come back in
	// the follower's next block on their own, as a node re-applies them).
	takeFromNode := true
	f := e.follower(20, func() []chaingen.PendingTx {
		if !takeFromNode {
			return nil
		}
		return e.takeMempool()
	})
	appendBlocks(f, 1)
	held("included", false)
	expect("included", "in_block", 1)
	// Its inputs are not in this db-sync: the input check would refuse it,
	// but a transaction already in a block is answered before that.
	submit("resubmission from a block", false, "in_block", 1)
	takeFromNode = false
	appendBlocks(f, 2)
	expect("two blocks later", "in_block", 3)

	if _, err := f.Rollback(ctx, 3); err != nil {
		t.Fatal(err)
	}
	expect("rolled back, gone from the mempool", "rolled_back", 0)

	// The node takes it back: in its mempool again.
	e.node.AddToMempool(tx.CBOR)
	expect("taken back by the node", "in_mempool", 0)
	// The follower's next block includes it again while the node still
	// holds it: the block wins.
	appendBlocks(f, 1)
	held("in a block and the mempool", true)
	expect("in a block, still in the mempool", "in_block", 1)
	if _, err := f.Rollback(ctx, 1); err != nil {
		t.Fatal(err)
	}
	expect("rolled back, still in the mempool", "in_mempool", 0)
	e.node.TakeMempool() // the node drops it
	expect("dropped by the node", "rolled_back", 0)

	// A follower of its own (the first would include the rolled-back
	// transaction again) moves the chain past the TTL.
	past := e.follower(150_000, nil)
	appendBlocks(past, 2)
	b = expect("past its TTL", "expired", 0)
	if b.Data.Tip.Slot < 4507000 {
		t.Fatalf("tip slot %d is not past the TTL", b.Data.Tip.Slot)
	}
	// Expired is final: the node holding it again (it would not accept it)
	// is the only thing that changes it.
	held("expired", false)
}

// TestTxStatusRightAfterSubmit: the mempool snapshot is shared and taken
// at most every so often, so the one status reads right after a submission
// may predate it (on another instance: the one that submitted marks its
// own snapshot old); the node's acceptance, logged after that snapshot,
// makes the status in_mempool at once. A snapshot newer than the
// acceptance that lacks the transaction is believed.
func TestTxStatusRightAfterSubmit(t *testing.T) {
	e := newStatusEnv(t, 500*time.Millisecond)
	e.mempoolOpts = node.MempoolOptions{MaxAge: time.Hour, MaxStale: time.Hour} // one snapshot for the whole test
	srv, other := e.instance(e.redis), e.instance(e.redis)
	tx := vectorTx(t, "blockfrost-e781decc5945")
	if _, b := e.status(srv, tx.Hash); b.Data.Status != "unknown" || b.Data.Mempool != "ok" {
		t.Fatalf("before: %+v", b.Data)
	}
	if code, _ := e.get(other, "/v1/mempool"); code != 200 { // the other instance's snapshot, taken now
		t.Fatalf("the other instance's mempool: %d", code)
	}
	if code, b := e.submit(srv, hex.EncodeToString(tx.CBOR), true); code != 200 || b.Data == nil || b.Data.Status != "submitted" {
		t.Fatalf("submit: %d %+v", code, b)
	}
	// The other instance's snapshot predates the acceptance: it does not
	// hold it (the submitting instance's next snapshot does).
	if code, _ := e.get(other, "/v1/mempool/"+tx.Hash); code != 404 {
		t.Fatalf("the snapshot holds the transaction (%d): the test proves nothing", code)
	}
	if code, _ := e.get(srv, "/v1/mempool/"+tx.Hash); code != 200 {
		t.Fatalf("the submitting instance's mempool lacks the transaction (%d)", code)
	}
	if _, b := e.status(other, tx.Hash); b.Data.Status != "in_mempool" || b.Data.Mempool != "ok" {
		t.Fatalf("right after the submission: %+v", b.Data)
	}
	// A snapshot taken after the acceptance is believed: the node
	// dropped the transaction.
	e.node.TakeMempool()
	e.mempoolOpts = freshMempool
	if _, b := e.status(e.instance(e.redis), tx.Hash); b.Data.Status != "unknown" {
		t.Fatalf("dropped after the acceptance: %+v", b.Data)
	}
}

// TestTxStatusRejectedAndNodeDown: a rejection is remembered with its
// reason; a timeout is recorded as unknown; with the node down or hung,
// status still answers within its deadline from db-sync and the log, with
// mempool "unavailable".
func TestTxStatusRejectedAndNodeDown(t *testing.T) {
	e := newStatusEnv(t, 500*time.Millisecond)
	for _, h := range []string{"zz", "abc", strings.Repeat("0", 66)} {
		code, b := e.status(e.srv, h)
		if code != 400 || b.Error != "Invalid transaction hash format (expected 64 hex characters)" {
			t.Fatalf("%q: %d %+v", h, code, b)
		}
	}
	byron := vectorTx(t, "pallas-byron1") // no TTL
	txid, _ := hex.DecodeString(byron.Inputs[0].TxHash)
	e.node.Reject(nodetest.ConwayBadInputs(txid, uint64(byron.Inputs[0].Index)))
	code, sb := e.submit(e.srv, hex.EncodeToString(byron.CBOR), true)
	if code != 400 || sb.Success {
		t.Fatalf("rejected submission: %d %+v", code, sb)
	}
	wantReason := fmt.Sprintf("ConwayUtxowFailure (UtxoFailure (BadInputsUTxO 258([[h'%s', %d]])))", byron.Inputs[0].TxHash, byron.Inputs[0].Index)
	_, b := e.status(e.srv, byron.Hash)
	if b.Data.Status != "rejected" || b.Data.Reason == nil || *b.Data.Reason != wantReason || b.Data.TTLSlot != nil || b.Data.SubmittedAt == nil {
		t.Fatalf("rejected status: %+v", b.Data)
	}

	// The node takes the transaction and never answers: 504, recorded as
	// unknown, and status says unknown (it is not in the mempool either).
	silent := vectorTx(t, "pallas-shelley1")
	e.node.Silent()
	if code, sb := e.submit(e.srv, hex.EncodeToString(silent.CBOR), true); code != 504 {
		t.Fatalf("silent node: %d %+v", code, sb)
	}
	sub, err := e.store.SubmissionOf(context.Background(), "mainnet", mustHex(t, silent.Hash))
	if err != nil || sub.Outcome != "unknown" || sub.AnsweredAt == nil {
		t.Fatalf("timeout not recorded: %+v %v", sub, err)
	}
	if _, b := e.status(e.srv, silent.Hash); b.Data.Status != "unknown" || b.Data.Mempool != "ok" {
		t.Fatalf("after a timeout: %+v", b.Data)
	}

	// The node's mempool hung, then the node gone: the answers come from
	// db-sync and the log, with mempool "unavailable". A status waits for
	// the mempool at most txstatus.DefaultMempoolTimeout and for the log at
	// most DefaultLogTimeout, so it answers within their sum; what this
	// rules out is waiting for the hung node's read to end by itself
	// (node.DefaultMempoolReadTimeout, the env's mempool setting) or
	// forever.
	bound := txstatus.DefaultMempoolTimeout + txstatus.DefaultLogTimeout
	if bound >= node.DefaultMempoolReadTimeout {
		t.Fatalf("the bound %s cannot tell giving up on the mempool from waiting for its read (%s)", bound, node.DefaultMempoolReadTimeout)
	}
	check := func(name string) {
		t.Helper()
		for _, w := range []struct{ hash, status string }{{byron.Hash, "rejected"}, {silent.Hash, "unknown"}, {cardano.TxHash{}.String(), "unknown"}} {
			start := time.Now()
			code, b := e.status(e.srv, w.hash)
			if took := time.Since(start); took > bound {
				t.Fatalf("node %s: status took %s, more than its mempool and log bounds (%s)", name, took, bound)
			}
			if code != 200 || b.Data.Status != w.status || b.Data.Mempool != "unavailable" {
				t.Fatalf("node %s, %s: %d %+v, want %s, mempool unavailable", name, w.hash, code, b.Data, w.status)
			}
		}
	}
	e.node.MempoolSilent()
	check("hung")
	e.node.Close()
	check("down")

	// A submission to the node that is gone is 503, recorded as unknown.
	other := vectorTx(t, "pallas-shelley3")
	if code, sb := e.submit(e.srv, hex.EncodeToString(other.CBOR), true); code != 503 {
		t.Fatalf("node down: %d %+v", code, sb)
	}
	if sub, err := e.store.SubmissionOf(context.Background(), "mainnet", mustHex(t, other.Hash)); err != nil || sub.Outcome != "unknown" {
		t.Fatalf("node down not recorded: %+v %v", sub, err)
	}
}

// TestSubmitAgainWhileMempoolCannotTell: resubmitted while the mempool
// cannot confirm it (its LocalTxMonitor hung while submissions still go
// through), a transaction the node accepted moments ago is success: the
// node's "inputs already spent" is its own copy.
func TestSubmitAgainWhileMempoolCannotTell(t *testing.T) {
	e := newStatusEnv(t, 500*time.Millisecond)
	tx := vectorTx(t, "blockfrost-e781decc5945")
	txHex := hex.EncodeToString(tx.CBOR)
	if code, b := e.submit(e.srv, txHex, true); code != 200 || b.Data.Status != "submitted" {
		t.Fatalf("first: %d %+v", code, b)
	}
	e.node.MempoolSilent()
	code, b := e.submit(e.srv, txHex, true)
	if code != 200 || b.Data == nil || b.Data.Status != "in_mempool" || e.received(tx.Hash) != 2 {
		t.Fatalf("again: %d %+v, node received %d", code, b, e.received(tx.Hash))
	}
	if sub, err := e.store.SubmissionOf(context.Background(), "mainnet", mustHex(t, tx.Hash)); err != nil || sub.Outcome != "accepted" || sub.Submissions != 2 {
		t.Fatalf("log: %+v %v", sub, err)
	}
}

// A status is kept under the chain's tip, the mempool snapshot and this
// instance's log writes for the hash. With one snapshot for a minute: a
// submission through another instance is not seen here yet (the answer
// lags its log no more than this instance's snapshot lags the node); one
// through this instance is seen at once; so is a block that includes it.
func TestTxStatusKept(t *testing.T) {
	e := newStatusEnv(t, 500*time.Millisecond)
	e.mempoolOpts = node.MempoolOptions{MaxAge: time.Minute, MaxStale: time.Minute}
	a, b := e.instance(e.redis), e.instance(e.redis)
	tx := vectorTx(t, "gouroboros-shelleyTxCborHex")
	txHex := hex.EncodeToString(tx.CBOR)
	expect := func(step string, srv *Server, want string) {
		t.Helper()
		if code, body := e.status(srv, tx.Hash); code != 200 || body.Data.Status != want || body.Data.Mempool != "ok" {
			t.Fatalf("%s: %d %+v, want %s", step, code, body.Data, want)
		}
	}
	expect("before any submission", a, "unknown")
	if code, body := e.submit(b, txHex, true); code != 200 || body.Data == nil || body.Data.Status != "submitted" {
		t.Fatalf("submission through the other instance: %d %+v", code, body)
	}
	expect("submitted elsewhere, same snapshot", a, "unknown")
	expect("on the instance that submitted it", b, "in_mempool")
	// Submitted again through this instance: the log (the other
	// instance's acceptance, newer than this snapshot) answers, and the
	// record of it is this instance's write.
	if code, body := e.submit(a, txHex, true); code != 200 || body.Data == nil || body.Data.Status != "in_mempool" {
		t.Fatalf("submission through this instance: %d %+v", code, body)
	}
	expect("submitted here", a, "in_mempool")
	f := e.follower(20, e.takeMempool)
	if _, err := f.AppendBlock(context.Background()); err != nil {
		t.Fatal(err)
	}
	e.db.ForgetTips() // the tip memo would lag the block by up to a second
	expect("in a block", a, "in_block")
}
