package scanner

import (
	"encoding/json"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/syncgate/syncgate/internal/answer"
	"github.com/syncgate/syncgate/internal/answer/bf"
	"github.com/syncgate/syncgate/internal/answer/bfevents"
	"github.com/syncgate/syncgate/internal/devtools/chaingen"
	"github.com/syncgate/syncgate/internal/events"
)

// certify writes stake certificates into the first transaction of the
// block at height, as db-sync writes them: a registration and a pool
// delegation of stake address addrID, and a vote delegation to drepID
// (0: none). The follower rolls them back with their transaction.
func (e *env) certify(height, addrID, poolID, drepID int64) {
	e.t.Helper()
	var txID, slot, epoch int64
	if err := e.raw.QueryRow(`SELECT t.id, b.slot_no, b.epoch_no FROM block b JOIN tx t ON t.block_id = b.id
		WHERE b.block_no = $1 ORDER BY t.block_index LIMIT 1`, height).Scan(&txID, &slot, &epoch); err != nil {
		e.t.Fatalf("block %d: %v", height, err)
	}
	e.raw.MustExec(`INSERT INTO stake_registration (addr_id, cert_index, epoch_no, tx_id, deposit) VALUES ($1, 0, $2, $3, 2000000)`, addrID, epoch, txID)
	e.raw.MustExec(`INSERT INTO delegation (addr_id, cert_index, pool_hash_id, active_epoch_no, tx_id, slot_no) VALUES ($1, 1, $2, $3, $4, $5)`,
		addrID, poolID, epoch+2, txID, slot)
	if drepID != 0 {
		e.raw.MustExec(`INSERT INTO delegation_vote (addr_id, cert_index, drep_hash_id, tx_id) VALUES ($1, 2, $2, $3)`, addrID, drepID, txID)
	}
}

// checkUndos: every revoked announcement is revoked by exactly one undo of
// its kind naming it, and every undo revokes one announcement; every
// announcement whose block db-sync no longer holds is revoked.
func (e *env) checkUndos(all []eventRow) {
	e.t.Helper()
	byID := map[uuid.UUID]eventRow{}
	for _, ev := range all {
		byID[ev.ID] = ev
	}
	undos := map[uuid.UUID]int{}
	for _, ev := range all {
		if _, announces := events.UndoOf[ev.Type]; announces || ev.Type == events.TypeWebhookTest {
			continue
		}
		var d events.Revocation
		if err := json.Unmarshal(ev.body(e.t).Data, &d); err != nil {
			e.t.Fatal(err)
		}
		undos[d.Revokes]++
		r, ok := byID[d.Revokes]
		if !ok || events.UndoOf[r.Type] != ev.Type || r.RevokedBy == nil || *r.RevokedBy != ev.ID || r.Seq != d.RevokedSeq {
			e.t.Errorf("%s %s (seq %d) revokes %s, which is %+v", ev.Type, ev.ID, ev.Seq, d.Revokes, r)
		}
	}
	for _, ev := range all {
		if _, announces := events.UndoOf[ev.Type]; !announces {
			continue
		}
		if ev.RevokedBy != nil && undos[ev.ID] != 1 {
			e.t.Errorf("%s %s revoked by %d undos", ev.Type, ev.ID, undos[ev.ID])
		}
		var held bool
		if err := e.raw.Get(&held, `SELECT EXISTS (SELECT 1 FROM block WHERE hash = decode($1, 'hex'))`, ev.BlockHash); err != nil {
			e.t.Fatal(err)
		}
		if !held && ev.RevokedBy == nil {
			e.t.Errorf("%s %s of rolled-back block %d (%s) not revoked", ev.Type, ev.ID, ev.BlockNo, ev.BlockHash)
		}
	}
}

// The chain moves across epoch boundaries and a rollback: one live
// block.added per block (no gap, no repeat), one live epoch.started per
// epoch started, one live delegation.confirmed per transaction with a
// watched certificate (stake address, pool or DRep), and each rolled-back
// announcement revoked once by its kind's undo.
func TestBlockEpochDelegationEvents(t *testing.T) {
	e := newEnvSlots(t, chaingen.ModeCore, 2, 432000/4) // an epoch every 4 blocks
	e.scanner(t.Context(), nil)
	start := e.tip()
	e.waitScanned(start)

	var addrID, poolID, drepID int64
	var stake, pool string
	if err := e.raw.QueryRow(`SELECT sa.id, sa.view FROM stake_address sa ORDER BY sa.id LIMIT 1`).Scan(&addrID, &stake); err != nil {
		t.Fatal(err)
	}
	if err := e.raw.QueryRow(`SELECT ph.id, ph.view FROM pool_hash ph ORDER BY ph.id DESC LIMIT 1`).Scan(&poolID, &pool); err != nil {
		t.Fatal(err)
	}
	var drepRaw string
	var drepScript bool
	err := e.raw.QueryRow(`SELECT id, encode(raw, 'hex'), has_script FROM drep_hash WHERE raw IS NOT NULL ORDER BY id LIMIT 1`).Scan(&drepID, &drepRaw, &drepScript)
	if err != nil {
		drepID = 0 // a chain without DReps: no vote delegations
	}
	drep := events.DRepOf(drepRaw, drepScript, "")

	blocksHook := e.webhook(0, []string{events.TypeBlockAdded, events.TypeBlockRolledBack}, events.StatusActive, start)
	epochHook := e.webhook(0, []string{events.TypeEpochStarted, events.TypeEpochRolledBack}, events.StatusActive, start)
	stakeHook := e.webhook(1, []string{events.TypeDelegationConfirmed, events.TypeDelegationRolledBack}, events.StatusActive, start,
		events.Item{Kind: events.KindStakeAddress, Value: stake})
	poolHook := e.webhook(1, []string{events.TypeDelegationConfirmed, events.TypeDelegationRolledBack, events.TypeTxConfirmed},
		events.StatusActive, start, events.Item{Kind: events.KindPool, Value: pool})
	// Depth 1 for every certificate watcher: certify writes into a block
	// already committed, which a depth-0 scanner may have decided without
	// them; the next block is appended after it.
	drepHook := e.webhook(1, []string{events.TypeDelegationConfirmed, events.TypeDelegationRolledBack}, events.StatusActive, start,
		events.Item{Kind: events.KindDRep, Value: drep})

	grow := func(n int, certAt map[int]bool) {
		for i := range n {
			e.pay(e.m.Addresses[i%len(e.m.Addresses)].Address, 3_000_000)
			b := e.appendBlocks(1)
			if certAt[i] {
				e.certify(b.BlockNo, addrID, poolID, drepID)
			}
		}
	}
	grow(10, map[int]bool{2: true, 7: true})
	e.waitScanned(e.tip())
	if _, err := e.f.Rollback(t.Context(), 6); err != nil {
		t.Fatal(err)
	}
	grow(9, map[int]bool{3: true})
	tip := e.tip()
	e.waitScanned(tip)

	// block.added: one live event per height, with db-sync's hash.
	var hashes []struct {
		No   int64  `db:"block_no"`
		Hash string `db:"hash"`
		New  bool   `db:"starts"`
		Ep   int64  `db:"epoch_no"`
	}
	if err := e.raw.Select(&hashes, `SELECT b.block_no, encode(b.hash, 'hex') AS hash, b.epoch_no,
		COALESCE(p.epoch_no < b.epoch_no, false) AS starts
		FROM block b LEFT JOIN block p ON p.id = b.previous_id WHERE b.block_no > $1 ORDER BY b.block_no`, start); err != nil {
		t.Fatal(err)
	}
	live := func(hook uuid.UUID, typ string) map[int64][]eventRow {
		out := map[int64][]eventRow{}
		for _, ev := range e.events(hook) {
			if ev.Type == typ && ev.RevokedBy == nil {
				out[ev.BlockNo] = append(out[ev.BlockNo], ev)
			}
		}
		return out
	}
	blocks, epochs := live(blocksHook, events.TypeBlockAdded), live(epochHook, events.TypeEpochStarted)
	starts := 0
	for _, h := range hashes {
		if evs := blocks[h.No]; len(evs) != 1 || evs[0].BlockHash != h.Hash {
			t.Errorf("block %d (%s): live block.added %+v", h.No, h.Hash, evs)
		}
		want := 0
		if h.New {
			want, starts = 1, starts+1
		}
		if evs := epochs[h.No]; len(evs) != want {
			t.Errorf("block %d (epoch %d, first: %v): %d live epoch.started", h.No, h.Ep, h.New, len(evs))
		} else if want == 1 {
			var d events.EpochStarted
			if err := json.Unmarshal(evs[0].body(t).Data, &d); err != nil || d.Epoch != h.Ep || d.Previous.Epoch != h.Ep-1 || evs[0].BlockHash != h.Hash {
				t.Errorf("epoch %d: %+v (%v)", h.Ep, d, err)
			}
		}
	}
	if len(blocks) != len(hashes) || starts < 3 {
		t.Errorf("%d live block.added for %d blocks; %d epochs started", len(blocks), len(hashes), starts)
	}

	// delegation.confirmed: one live event per transaction with a watched
	// certificate, as SQL of the test's own finds them.
	checkDeleg := func(hook uuid.UUID, depth int64, where string, arg any) {
		t.Helper()
		var want []string
		if err := e.raw.Select(&want, fmt.Sprintf(`SELECT DISTINCT encode(t.hash, 'hex') FROM block b JOIN tx t ON t.block_id = b.id
			WHERE b.block_no > $1 AND b.block_no <= $2 AND t.id IN (%s)`, where), start, tip-depth, arg); err != nil {
			t.Fatal(err)
		}
		got := map[string]int{}
		for _, evs := range live(hook, events.TypeDelegationConfirmed) {
			for _, ev := range evs {
				got[ev.TxHash]++
			}
		}
		if len(got) != len(want) {
			t.Errorf("%s: %d transactions with live delegation.confirmed, SQL finds %d", where, len(got), len(want))
		}
		for _, tx := range want {
			if got[tx] != 1 {
				t.Errorf("%s: tx %s has %d live delegation.confirmed", where, tx, got[tx])
			}
		}
	}
	checkDeleg(stakeHook, 1, `SELECT tx_id FROM delegation d JOIN stake_address sa ON sa.id = d.addr_id WHERE sa.view = $3
		UNION SELECT tx_id FROM stake_registration r JOIN stake_address sa ON sa.id = r.addr_id WHERE sa.view = $3
		UNION SELECT tx_id FROM stake_deregistration r JOIN stake_address sa ON sa.id = r.addr_id WHERE sa.view = $3
		UNION SELECT tx_id FROM delegation_vote v JOIN stake_address sa ON sa.id = v.addr_id WHERE sa.view = $3`, stake)
	checkDeleg(poolHook, 1, `SELECT tx_id FROM delegation d JOIN pool_hash ph ON ph.id = d.pool_hash_id WHERE ph.view = $3`, pool)
	if drepID != 0 {
		checkDeleg(drepHook, 1, `SELECT tx_id FROM delegation_vote WHERE drep_hash_id = $3`, drepID)
	}
	var d events.DelegationConfirmed
	for _, evs := range live(stakeHook, events.TypeDelegationConfirmed) {
		if err := json.Unmarshal(evs[0].body(t).Data, &d); err != nil || len(d.Certificates) < 2 ||
			d.Certificates[0].Type != "registration" || d.Certificates[1].Type != "stake_delegation" || *d.Certificates[1].Pool != pool {
			t.Errorf("delegation.confirmed %s: %+v (%v)", evs[0].TxHash, d, err)
		}
	}
	all := e.events(uuid.Nil)
	revoked := 0
	for _, ev := range all {
		if ev.RevokedBy != nil {
			revoked++
		}
	}
	if revoked == 0 {
		t.Error("the rollback revoked nothing")
	}
	e.checkUndos(all)
	e.checkSequences()
}

// A block.added webhook watching pools is told of exactly the blocks those
// pools made (db-sync's block.slot_leader_id → slot_leader.pool_hash_id →
// pool_hash), in syncgate's format and in Blockfrost's, and of no other
// block; a rollback revokes the announcements of the blocks it removes,
// once each (block.rolled_back), and the blocks made in their place are
// announced when their pool is watched. A webhook watching a pool that
// makes no block hears nothing.
func TestBlockAddedPoolItems(t *testing.T) {
	e := newEnv(t, chaingen.ModeCore)
	e.scanner(t.Context(), func(s *Scanner) { s.o.Blockfrost = bfevents.New(bf.New(answer.New(answer.Options{}))) })
	start := e.tip()
	e.waitScanned(start)
	e.appendBlocks(24)
	tip1 := e.tip()
	e.waitScanned(tip1)

	// The pools of the blocks made so far, from db-sync's own rows; the
	// rollback below removes the newest six.
	const removed = 6
	before := e.blockPools(start)
	// B (the Blockfrost-format webhook's, at depth 1): a pool that made a
	// removed block the webhook will have announced (below the tip); A:
	// another pool, one that made a removed block if any did.
	var poolA, poolB string
	for _, b := range before {
		if poolB == "" && b.Pool != "" && b.Height > tip1-removed && b.Height < tip1 {
			poolB = b.Pool
		}
	}
	for _, b := range before {
		if b.Pool != "" && b.Pool != poolB && (poolA == "" || b.Height > tip1-removed) {
			poolA = b.Pool
		}
	}
	if poolA == "" || poolB == "" {
		t.Fatalf("the new blocks were made by fewer than two pools: %+v", before)
	}
	var idle string
	if err := e.raw.Get(&idle, `SELECT ph.view FROM pool_hash ph WHERE NOT EXISTS (SELECT 1 FROM slot_leader sl
		JOIN block b ON b.slot_leader_id = sl.id WHERE sl.pool_hash_id = ph.id) ORDER BY ph.id LIMIT 1`); err != nil {
		t.Fatalf("a pool that never made a block: %v", err)
	}

	// The webhooks catch up from start to tip1, then the chain rolls back
	// and grows again, scanned block by block.
	types := []string{events.TypeBlockAdded, events.TypeBlockRolledBack}
	hookA := e.webhook(0, types, events.StatusActive, start, events.Item{Kind: events.KindPool, Value: poolA})
	hookB := e.webhookIn(events.FormatBlockfrost, 1, types, events.StatusActive, start,
		events.Item{Kind: events.KindPool, Value: poolB}, events.Item{Kind: events.KindPool, Value: idle})
	hookIdle := e.webhook(0, types, events.StatusActive, start, events.Item{Kind: events.KindPool, Value: idle})
	e.waitScanned(tip1)
	if _, err := e.f.Rollback(t.Context(), removed); err != nil {
		t.Fatal(err)
	}
	for range 12 {
		e.appendBlocks(1)
		time.Sleep(30 * time.Millisecond) // scanned one at a time, mostly
	}
	tip2 := e.tip()
	e.waitScanned(tip2)
	after := e.blockPools(start)

	made := map[string]blockPool{} // every block made since start, by hash
	for _, b := range slices.Concat(before, after) {
		made[b.Hash] = b
	}
	held := map[string]bool{}
	for _, b := range after {
		held[b.Hash] = true
	}
	check := func(hook uuid.UUID, depth int64, watched ...string) {
		t.Helper()
		w := map[string]bool{}
		for _, p := range watched {
			w[p] = true
		}
		evs := e.events(hook)
		announced := map[string][]eventRow{}
		undos := map[uuid.UUID]int{}
		for _, ev := range evs {
			typ, pool, payloadHash, revokes := e.blockEvent(ev)
			switch typ {
			case events.TypeBlockAdded:
				b, ok := made[ev.BlockHash]
				if !ok || !w[b.Pool] || pool != b.Pool || payloadHash != ev.BlockHash || b.Height != ev.BlockNo {
					t.Errorf("%s announced block %d (%s, made by %q, body says pool %q, hash %s), watching %v",
						hook, ev.BlockNo, ev.BlockHash, b.Pool, pool, payloadHash, watched)
				}
				announced[ev.BlockHash] = append(announced[ev.BlockHash], ev)
			case events.TypeBlockRolledBack:
				undos[revokes]++
			default:
				t.Errorf("%s got %s", hook, typ)
			}
		}
		for hash, evs := range announced {
			live := 0
			for _, ev := range evs {
				if ev.RevokedBy == nil {
					live++
				} else if undos[ev.ID] != 1 {
					t.Errorf("%s: block %d's announcement %s revoked by %d undos", hook, ev.BlockNo, ev.ID, undos[ev.ID])
				}
			}
			if want := map[bool]int{true: 1, false: 0}[held[hash]]; live != want {
				t.Errorf("%s: block %d (%s, held: %v) has %d live announcements", hook, made[hash].Height, hash, held[hash], live)
			}
		}
		// Every block of a watched pool within the webhook's depth is
		// announced: those still on the chain live, the rolled-back ones
		// revoked.
		for _, b := range slices.Concat(before, after) {
			tip := tip2
			if !held[b.Hash] {
				tip = tip1
			}
			if w[b.Pool] && b.Height <= tip-depth && len(announced[b.Hash]) == 0 {
				t.Errorf("%s: block %d (%s) of watched pool %s not announced", hook, b.Height, b.Hash, b.Pool)
			}
		}
		revoked := 0
		for _, n := range undos {
			revoked += n
		}
		t.Logf("%s watching %d pools: %d blocks announced, %d revoked", hook, len(watched), len(announced), revoked)
	}
	check(hookA, 0, poolA)
	check(hookB, 1, poolB, idle)
	check(hookIdle, 0, idle)
	if n := len(e.events(hookIdle)); n != 0 {
		t.Errorf("the idle pool's webhook got %d events", n)
	}
	// The test can fail: each pool's webhook had the other's blocks to
	// leave out, and the rollback removed announced blocks of both.
	mine := map[string]int{}
	for _, b := range made {
		if !held[b.Hash] {
			mine[b.Pool+" removed"]++
		}
		mine[b.Pool]++
	}
	if mine[poolA] == 0 || mine[poolB] == 0 || mine[poolA+" removed"] == 0 || mine[poolB+" removed"] == 0 {
		t.Errorf("blocks made and removed by pool: %v (A %s, B %s): nothing to leave out or revoke", mine, poolA, poolB)
	}
	e.checkSequences()
}

// blockPool is a block and the pool that made it ("" for a genesis
// delegate), as db-sync records them.
type blockPool struct {
	Height int64  `db:"block_no"`
	Hash   string `db:"hash"`
	Pool   string `db:"pool"`
}

// blockPools is every block above height from, with its pool.
func (e *env) blockPools(from int64) []blockPool {
	e.t.Helper()
	var out []blockPool
	if err := e.raw.Select(&out, `SELECT b.block_no, encode(b.hash, 'hex') AS hash, COALESCE(ph.view, '') AS pool
		FROM block b JOIN slot_leader sl ON sl.id = b.slot_leader_id LEFT JOIN pool_hash ph ON ph.id = sl.pool_hash_id
		WHERE b.block_no > $1 ORDER BY b.block_no`, from); err != nil {
		e.t.Fatal(err)
	}
	return out
}

// blockEvent reads a block event's body in either format: its type, the
// pool and block hash it names (an announcement), or the event it revokes
// (an undo).
func (e *env) blockEvent(ev eventRow) (typ, pool, hash string, revokes uuid.UUID) {
	e.t.Helper()
	var env struct {
		Type    string          `json:"type"`
		Data    json.RawMessage `json:"data"`
		Payload json.RawMessage `json:"payload"`
	}
	if err := json.Unmarshal([]byte(ev.Body), &env); err != nil {
		e.t.Fatalf("event %+v: %v", ev, err)
	}
	switch {
	case env.Type == events.BlockfrostBlock: // Blockfrost's block_content
		var p struct {
			Hash       string `json:"hash"`
			SlotLeader string `json:"slot_leader"`
		}
		if err := json.Unmarshal(env.Payload, &p); err != nil {
			e.t.Fatalf("event %+v: %v", ev, err)
		}
		return events.TypeBlockAdded, p.SlotLeader, p.Hash, uuid.Nil
	case env.Type == events.TypeBlockAdded:
		var d events.BlockAdded
		if err := json.Unmarshal(env.Data, &d); err != nil {
			e.t.Fatalf("event %+v: %v", ev, err)
		}
		if d.Pool != nil {
			pool = *d.Pool
		}
		return env.Type, pool, ev.BlockHash, uuid.Nil
	case env.Type == events.TypeBlockRolledBack:
		raw := env.Data
		if raw == nil {
			raw = env.Payload
		}
		var r events.Revocation
		if err := json.Unmarshal(raw, &r); err != nil {
			e.t.Fatalf("event %+v: %v", ev, err)
		}
		return env.Type, "", "", r.Revokes
	}
	return env.Type, "", "", uuid.Nil
}
