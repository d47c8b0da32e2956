package scanner

import (
	"fmt"
	"os"
	"testing"

	"github.com/google/uuid"
	"github.com/lib/pq"

	"github.com/syncgate/syncgate/internal/answer"
	"github.com/syncgate/syncgate/internal/answer/bf"
	"github.com/syncgate/syncgate/internal/answer/bfevents"
	"github.com/syncgate/syncgate/internal/events"
)

// benchMix is SCANNER_BENCH_MIX: "mixed" (the default) gives the 1,000
// webhooks every event kind, "tx" the configuration measured before
// block, epoch and delegation events existed (all 1,000 on tx.confirmed).
func benchMix(b *testing.B) string {
	switch m := os.Getenv("SCANNER_BENCH_MIX"); m {
	case "", "mixed":
		return "mixed"
	case "tx":
		return m
	default:
		b.Fatalf(`SCANNER_BENCH_MIX: "mixed" or "tx", not %q`, m)
		return ""
	}
}

// benchRenderer is the Blockfrost payload renderer serve wires
// (internal/cli/chain_events.go): the dialect's answers with caches in
// process.
func benchRenderer() Blockfrost { return bfevents.New(bf.New(answer.New(answer.Options{}))) }

// benchHooks counts the webhooks benchWebhooks made, by kind.
type benchHooks struct {
	tx, everyBlock, poolBlocks, epoch, deleg, blockfrost int
}

func (h benchHooks) String() string {
	return fmt.Sprintf("%d tx.confirmed, %d block.added on every block, %d on watched pools' blocks, %d epoch.started, %d delegation.confirmed; %d in Blockfrost format",
		h.tx, h.everyBlock, h.poolBlocks, h.epoch, h.deleg, h.blockfrost)
}

// benchWebhooks makes the benchmarks' 1,000 webhooks (depths 0-2, each
// scanned through tip minus its depth). With mix "tx" every one watches
// 10 addresses for tx.confirmed, one in 20 a followed address among them.
// With "mixed", of the 1,000:
//   - 100 want block.added (and block.rolled_back): half on every block,
//     half on the blocks of watched pools (one of the pools making the
//     blocks, leaders, round robin, and 4 that make none); one in 4 of
//     them in Blockfrost format, so each block's /blocks/{hash} payload is
//     rendered in the step;
//   - 20 want epoch.started, half in Blockfrost format;
//   - 20 want delegation.confirmed, watching a leader pool and 9 stake
//     addresses;
//   - the other 860 are the tx.confirmed webhooks above.
func (e *env) benchWebhooks(b *testing.B, tip int64, followed, leaders []string, mix string) benchHooks {
	b.Helper()
	if mix == "mixed" && len(leaders) == 0 {
		b.Fatal("no pool made a recent block")
	}
	var n benchHooks
	for i := range 1000 {
		depth := i % 3
		through := tip - int64(depth)
		switch {
		case mix == "mixed" && i%10 == 5:
			j := i / 10
			format := events.FormatStandard
			if j%4 == 0 {
				format = events.FormatBlockfrost
				n.blockfrost++
			}
			id := e.benchHook(b, depth, through, format, events.TypeBlockAdded, events.TypeBlockRolledBack)
			if j%2 == 0 {
				n.everyBlock++
				continue
			}
			n.poolBlocks++
			e.admin.MustExec(`INSERT INTO syncgate.webhook_items (webhook_id, network, kind, value)
				SELECT $1::uuid, $2, 'pool', 'pool1bench_' || $3 || '_' || g FROM generate_series(1, 4) g
				UNION ALL SELECT $1::uuid, $2, 'pool', $4`, id, e.net, i, leaders[j%len(leaders)])
		case mix == "mixed" && i%50 == 3:
			format := events.FormatStandard
			if (i/50)%2 == 0 {
				format = events.FormatBlockfrost
				n.blockfrost++
			}
			e.benchHook(b, depth, through, format, events.TypeEpochStarted, events.TypeEpochRolledBack)
			n.epoch++
		case mix == "mixed" && i%50 == 7:
			id := e.benchHook(b, depth, through, events.FormatStandard, events.TypeDelegationConfirmed, events.TypeDelegationRolledBack)
			e.admin.MustExec(`INSERT INTO syncgate.webhook_items (webhook_id, network, kind, value)
				SELECT $1::uuid, $2, 'stake_address', 'stake1bench_' || $3 || '_' || g FROM generate_series(1, 9) g
				UNION ALL SELECT $1::uuid, $2, 'pool', $4`, id, e.net, i, leaders[i%len(leaders)])
			n.deleg++
		default:
			id := e.benchHook(b, depth, through, events.FormatStandard, allTypes...)
			real := "addr1bench_quiet_" + fmt.Sprint(i)
			if i%20 == 0 {
				real = followed[(i/20)%len(followed)]
			}
			e.admin.MustExec(`INSERT INTO syncgate.webhook_items (webhook_id, network, kind, value)
				SELECT $1::uuid, $2, 'address', 'addr1bench_' || $3 || '_' || g FROM generate_series(1, 9) g
				UNION ALL SELECT $1::uuid, $2, 'address', $4`, id, e.net, i, real)
			n.tx++
		}
	}
	return n
}

// benchHook makes one pushing webhook of no items yet.
func (e *env) benchHook(b *testing.B, depth int, through int64, format string, types ...string) (id uuid.UUID) {
	b.Helper()
	if err := e.admin.Get(&id, `INSERT INTO syncgate.webhooks (user_account_id, network, depth, event_types, format, secret_sealed, scanned_through)
		VALUES ($1, $2, $3, $4, $5, '\x00', $6) RETURNING id`, e.user, e.net, depth, pq.Array(types), format, through); err != nil {
		b.Fatal(fmt.Errorf("webhook: %w", err))
	}
	return id
}

// benchLeaders is the pools that made the newest 1,000 blocks: the chain
// follower's block producers (chaingen's follow_leaders).
func (e *env) benchLeaders(b *testing.B) []string {
	b.Helper()
	var out []string
	if err := e.raw.Select(&out, `SELECT DISTINCT ph.view FROM block b JOIN slot_leader sl ON sl.id = b.slot_leader_id
		JOIN pool_hash ph ON ph.id = sl.pool_hash_id WHERE b.id > (SELECT max(id) - 1000 FROM block) ORDER BY 1`); err != nil {
		b.Fatal(err)
	}
	return out
}
