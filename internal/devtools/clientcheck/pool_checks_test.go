package clientcheck_test

import (
	"encoding/json"
	"slices"
	"strconv"
	"strings"
	"testing"
)

const (
	// poolSQL is the pool_hash id of the pool $1 (pool1…).
	poolSQL = `(SELECT id FROM pool_hash WHERE view = $1)`
	// latestUpdateSQL is the pool $1's latest registration or update.
	latestUpdateSQL = `(SELECT id FROM pool_update WHERE hash_id = ` + poolSQL + ` ORDER BY registered_tx_id DESC, cert_index DESC LIMIT 1)`
	// poolStatusSQL is every registered pool with its status (DECISIONS:
	// retiring or retired when its latest retirement is newer than its
	// latest registration, by whether its epoch has come).
	poolStatusSQL = `SELECT ph.id, ph.view, encode(ph.hash_raw, 'hex') AS hex, u.id AS update_id, r.retiring_epoch,
		CASE WHEN r.retiring_epoch IS NULL OR (r.announced_tx_id, r.cert_index) < (u.registered_tx_id, u.cert_index) THEN 'active'
			WHEN r.retiring_epoch <= ` + curEpochSQL + ` THEN 'retired' ELSE 'retiring' END AS status
		FROM pool_hash ph
		JOIN LATERAL (SELECT id, registered_tx_id, cert_index FROM pool_update WHERE hash_id = ph.id
			ORDER BY registered_tx_id DESC, cert_index DESC LIMIT 1) u ON true
		LEFT JOIN LATERAL (SELECT announced_tx_id, cert_index, retiring_epoch FROM pool_retire WHERE hash_id = ph.id
			ORDER BY announced_tx_id DESC, cert_index DESC LIMIT 1) r ON true`
	// poolBlocksSQL counts the blocks of the pool p.id.
	poolBlocksSQL = `(SELECT count(*) FROM block b JOIN slot_leader sl ON sl.id = b.slot_leader_id WHERE sl.pool_hash_id = p.id)`
	// delegatorsSQL is the pool $1's current delegators (DECISIONS): a
	// stake address whose latest delegation targets it, not deregistered
	// since, and not delegated before a retirement of the pool took effect
	// (one neither cancelled by a registration nor replaced by a newer
	// retirement before its epoch), with its live stake (unspent outputs
	// and rewards not withdrawn).
	delegatorsSQL = `WITH latest AS (SELECT DISTINCT ON (d.addr_id) d.addr_id, d.pool_hash_id, d.tx_id, d.cert_index, b.epoch_no
			FROM delegation d JOIN tx ON tx.id = d.tx_id JOIN block b ON b.id = tx.block_id
			ORDER BY d.addr_id, d.tx_id DESC, d.cert_index DESC),
		retirements AS (SELECT pr.retiring_epoch FROM pool_retire pr JOIN tx rt ON rt.id = pr.announced_tx_id
			WHERE pr.hash_id = ` + poolSQL + ` AND pr.retiring_epoch <= ` + curEpochSQL + `
			AND NOT EXISTS (SELECT 1 FROM pool_update pu JOIN tx ut ON ut.id = pu.registered_tx_id JOIN block ub ON ub.id = ut.block_id
				WHERE pu.hash_id = pr.hash_id AND pu.registered_tx_id > pr.announced_tx_id AND ub.epoch_no < pr.retiring_epoch)
			AND NOT EXISTS (SELECT 1 FROM pool_retire p2 JOIN tx t2 ON t2.id = p2.announced_tx_id JOIN block b2 ON b2.id = t2.block_id
				WHERE p2.hash_id = pr.hash_id AND p2.announced_tx_id > pr.announced_tx_id AND b2.epoch_no < pr.retiring_epoch)),
		current AS (SELECT l.addr_id FROM latest l WHERE l.pool_hash_id = ` + poolSQL + `
			AND NOT EXISTS (SELECT 1 FROM stake_deregistration sd WHERE sd.addr_id = l.addr_id AND (sd.tx_id, sd.cert_index) > (l.tx_id, l.cert_index))
			AND NOT EXISTS (SELECT 1 FROM retirements x WHERE x.retiring_epoch > l.epoch_no)),
		live AS (SELECT c.addr_id,
			(SELECT COALESCE(sum(o.value), 0) FROM tx_out o WHERE o.stake_address_id = c.addr_id AND ` + unspentSQL + `) +
			GREATEST((SELECT COALESCE(sum(amount), 0) FROM reward WHERE addr_id = c.addr_id AND spendable_epoch <= ` + curEpochSQL + `) +
				(SELECT COALESCE(sum(amount), 0) FROM reward_rest WHERE addr_id = c.addr_id AND spendable_epoch <= ` + curEpochSQL + `) -
				(SELECT COALESCE(sum(w.amount), 0) FROM withdrawal w JOIN tx v ON v.id = w.tx_id WHERE w.addr_id = c.addr_id AND v.valid_contract), 0) AS amount
			FROM current c)
		SELECT sa.view || ' ' || live.amount FROM live JOIN stake_address sa ON sa.id = live.addr_id`
)

// checkPools compares every pool method blockfrost-js called with the
// test's SQL.
func checkPools(t *testing.T, s *stack, r *results, in bfInput) {
	listed := s.want(t, `SELECT view FROM (`+poolStatusSQL+`) p WHERE status <> 'retired' ORDER BY id`)
	var ids []string
	if r.get("pools", "GET /pools", &ids) {
		sameList(t, "pools", ids, listed[:min(100, len(listed))])
	}
	if r.get("poolsAll", "GET /pools", &ids) {
		sameList(t, "poolsAll", ids, listed)
	}
	extendedWant := s.want(t, `SELECT p.view || ' ' || p.hex || ' ' ||
			COALESCE((SELECT sum(amount) FROM epoch_stake WHERE pool_id = p.id AND epoch_no = `+curEpochSQL+`), 0) || ' ' ||
			`+poolBlocksSQL+` || ' ' || u.pledge || ' ' || u.fixed_cost
			FROM (`+poolStatusSQL+`) p JOIN pool_update u ON u.id = p.update_id WHERE p.status <> 'retired' ORDER BY p.id`)
	for i, row := range extendedWant { // each pool's live stake: its current delegators' sum
		extendedWant[i] = row + " " + strconv.FormatInt(s.liveStake(t, strings.SplitN(row, " ", 2)[0]), 10)
	}
	extended := listCheck{t: t, r: r, route: "GET /pools/extended",
		fields: []string{"pool_id", "hex", "active_stake", "blocks_minted", "declared_pledge", "fixed_cost", "live_stake"},
		want:   extendedWant}
	extended.page("poolsExtended")
	extended.all("poolsExtendedAll")
	for _, status := range []string{"retired", "retiring"} {
		sortedList(t, r, listCheck{route: "GET /pools/" + status, fields: []string{"pool_id", "epoch"},
			want: s.want(t, `SELECT view || ' ' || retiring_epoch FROM (`+poolStatusSQL+`) p WHERE status = $1`, status)},
			"pools"+strings.ToUpper(status[:1])+status[1:]+"Pages", false)
	}
	for _, p := range in.Pools {
		checkPool(t, s, r, p)
		checkPoolLists(t, s, r, p)
	}
}

func checkPool(t *testing.T, s *stack, r *results, p string) {
	c := func(call string) string { return call + "|" + p }
	var got struct {
		PoolID         string   `json:"pool_id"`
		Hex            string   `json:"hex"`
		VRF            string   `json:"vrf_key"`
		Blocks         int      `json:"blocks_minted"`
		LiveStake      string   `json:"live_stake"`
		LiveDelegators int      `json:"live_delegators"`
		ActiveStake    string   `json:"active_stake"`
		Pledge         string   `json:"declared_pledge"`
		Margin         float64  `json:"margin_cost"`
		FixedCost      string   `json:"fixed_cost"`
		RewardAccount  string   `json:"reward_account"`
		Owners         []string `json:"owners"`
		Registration   []string `json:"registration"`
		Retirement     []string `json:"retirement"`
	}
	delegators := s.want(t, delegatorsSQL, p)
	if r.get(c("poolsById"), "GET /pools/{pool_id}", &got) {
		var want struct {
			Hex, VRF, Pledge, FixedCost, RewardAccount, ActiveStake string
			Blocks                                                  int
			Margin                                                  float64
		}
		s.sql(t, &want, `SELECT p.hex, encode(u.vrf_key_hash, 'hex') AS vrf, u.pledge::text AS pledge, u.fixed_cost::text AS fixedcost,
			u.margin, sa.view AS rewardaccount, `+poolBlocksSQL+` AS blocks,
			COALESCE((SELECT sum(amount) FROM epoch_stake WHERE pool_id = p.id AND epoch_no = `+curEpochSQL+`), 0)::text AS activestake
			FROM (`+poolStatusSQL+`) p JOIN pool_update u ON u.id = p.update_id JOIN stake_address sa ON sa.id = u.reward_addr_id
			WHERE p.view = $1`, p)
		eq(t, c("poolsById")+" pool_id", got.PoolID, p)
		eq(t, c("poolsById")+" hex", got.Hex, want.Hex)
		eq(t, c("poolsById")+" vrf_key", got.VRF, want.VRF)
		eq(t, c("poolsById")+" blocks_minted", got.Blocks, want.Blocks)
		eq(t, c("poolsById")+" active_stake", got.ActiveStake, want.ActiveStake)
		eq(t, c("poolsById")+" declared_pledge", got.Pledge, want.Pledge)
		eq(t, c("poolsById")+" margin_cost", got.Margin, want.Margin)
		eq(t, c("poolsById")+" fixed_cost", got.FixedCost, want.FixedCost)
		eq(t, c("poolsById")+" reward_account", got.RewardAccount, want.RewardAccount)
		eq(t, c("poolsById")+" live_delegators", got.LiveDelegators, len(delegators))
		eq(t, c("poolsById")+" live_stake", got.LiveStake, strconv.FormatInt(s.liveStake(t, p), 10))
		owners := s.want(t, `SELECT sa.view FROM pool_owner o JOIN stake_address sa ON sa.id = o.addr_id
			WHERE o.pool_update_id = `+latestUpdateSQL+` ORDER BY 1`, p)
		slices.Sort(got.Owners)
		sameList(t, c("poolsById")+" owners", got.Owners, owners)
		sameList(t, c("poolsById")+" registration", got.Registration, s.want(t, `SELECT encode(t.hash, 'hex') FROM pool_update u
			JOIN tx t ON t.id = u.registered_tx_id WHERE u.hash_id = `+poolSQL+` ORDER BY u.registered_tx_id, u.cert_index`, p))
		sameList(t, c("poolsById")+" retirement", got.Retirement, s.want(t, `SELECT encode(t.hash, 'hex') FROM pool_retire x
			JOIN tx t ON t.id = x.announced_tx_id WHERE x.hash_id = `+poolSQL+` ORDER BY x.announced_tx_id, x.cert_index`, p))
	}
	sortedList(t, r, listCheck{route: "GET /pools/{pool_id}/delegators", fields: []string{"address", "live_stake"}, want: delegators},
		c("poolsByIdDelegatorsPages"), false)

	var meta map[string]json.RawMessage
	if r.get(c("poolMetadata"), "GET /pools/{pool_id}/metadata", &meta) {
		var want struct{ URL, Hash, Ticker, Name, Description, Homepage string }
		s.sql(t, &want, `SELECT COALESCE(m.url, '') AS url, COALESCE(encode(m.hash, 'hex'), '') AS hash,
			COALESCE(d.ticker_name, '') AS ticker, COALESCE(d.json ->> 'name', '') AS name,
			COALESCE(d.json ->> 'description', '') AS description, COALESCE(d.json ->> 'homepage', '') AS homepage
			FROM pool_update u LEFT JOIN pool_metadata_ref m ON m.id = u.meta_id
			LEFT JOIN LATERAL (SELECT * FROM off_chain_pool_data WHERE pmr_id = m.id ORDER BY id DESC LIMIT 1) d ON true
			WHERE u.id = `+latestUpdateSQL, p)
		text := func(k string) string {
			if v := jsonText(meta[k]); v != "<nil>" {
				return v
			}
			return ""
		}
		for k, w := range map[string]string{"url": want.URL, "hash": want.Hash, "ticker": want.Ticker, "name": want.Name,
			"description": want.Description, "homepage": want.Homepage} {
			eq(t, c("poolMetadata")+" "+k, text(k), w)
		}
	}
	// The contract's port is not nullable: an SRV relay (no port) has 0.
	relays := listCheck{route: "GET /pools/{pool_id}/relays", fields: []string{"ipv4", "ipv6", "dns", "dns_srv", "port"},
		want: s.want(t, `SELECT COALESCE(ipv4, '<nil>') || ' ' || COALESCE(ipv6, '<nil>') || ' ' || COALESCE(dns_name, '<nil>') || ' ' ||
			COALESCE(dns_srv_name, '<nil>') || ' ' || COALESCE(port, 0) FROM pool_relay WHERE update_id = `+latestUpdateSQL, p)}
	sortedList(t, r, relays, c("poolsByIdRelays"), false)
}

// checkPoolLists: the pool's history in each epoch before the current one
// it had active stake in, its blocks, certificates and
// votes, in chain order.
func checkPoolLists(t *testing.T, s *stack, r *results, p string) {
	c := func(call string) string { return call + "|" + p }
	// rewards: what members and leader earned for the epoch; fees: the
	// operator's cut of it under the registration in force that epoch
	// (all of it up to the fixed cost, else the cost plus the margin of
	// the rest, rounded down).
	listCheck{t: t, r: r, route: "GET /pools/{pool_id}/history", fields: []string{"epoch", "blocks", "active_stake", "delegators_count", "rewards", "fees"},
		want: s.want(t, `SELECT h.epoch_no || ' ' || h.blocks || ' ' || h.active || ' ' || h.delegators || ' ' || h.rewards || ' ' ||
			CASE WHEN h.rewards <= u.fixed_cost THEN h.rewards ELSE u.fixed_cost + floor((h.rewards - u.fixed_cost) * u.margin::numeric) END
			FROM (SELECT es.epoch_no, es.pool_id, (SELECT count(*) FROM block b JOIN slot_leader sl ON sl.id = b.slot_leader_id
					WHERE sl.pool_hash_id = es.pool_id AND b.epoch_no = es.epoch_no) AS blocks, sum(es.amount) AS active, count(*) AS delegators,
				(SELECT COALESCE(sum(r.amount), 0) FROM reward r WHERE r.pool_id = es.pool_id AND r.earned_epoch = es.epoch_no
					AND r.type IN ('member', 'leader')) AS rewards
				FROM epoch_stake es WHERE es.pool_id = `+poolSQL+` AND es.epoch_no < `+curEpochSQL+` GROUP BY es.pool_id, es.epoch_no) h
			CROSS JOIN LATERAL (SELECT pu.fixed_cost, pu.margin FROM pool_update pu WHERE pu.hash_id = h.pool_id AND pu.active_epoch_no <= h.epoch_no
				ORDER BY pu.registered_tx_id DESC, pu.cert_index DESC LIMIT 1) u
			ORDER BY h.epoch_no`, p)}.all(c("poolsByIdHistoryPages"))
	var blocks []string
	if r.get(c("poolsByIdBlocksPages"), "GET /pools/{pool_id}/blocks", &blocks) {
		sameList(t, c("poolsByIdBlocksPages"), blocks, s.want(t, `SELECT encode(b.hash, 'hex') FROM block b
			JOIN slot_leader sl ON sl.id = b.slot_leader_id WHERE sl.pool_hash_id = `+poolSQL+` ORDER BY b.id`, p))
	}
	listCheck{t: t, r: r, route: "GET /pools/{pool_id}/updates", fields: []string{"tx_hash", "cert_index", "action"},
		want: s.want(t, `SELECT encode(t.hash, 'hex') || ' ' || x.cert_index || ' ' || x.action FROM (
			SELECT registered_tx_id AS tx_id, cert_index, 'registered' AS action FROM pool_update WHERE hash_id = `+poolSQL+`
			UNION ALL SELECT announced_tx_id, cert_index, 'deregistered' FROM pool_retire WHERE hash_id = `+poolSQL+`) x
			JOIN tx t ON t.id = x.tx_id ORDER BY x.tx_id, x.cert_index`, p)}.all(c("poolsByIdUpdatesPages"))
	votes := listCheck{t: t, r: r, route: "GET /pools/{pool_id}/votes", fields: []string{"tx_hash", "cert_index", "vote"},
		want: s.want(t, `SELECT encode(t.hash, 'hex') || ' ' || v.index || ' ' || lower(v.vote::text) FROM voting_procedure v
			JOIN tx t ON t.id = v.tx_id WHERE v.pool_voter = `+poolSQL+` ORDER BY v.tx_id, v.index`, p)}
	votes.page(c("poolsByIdVotes"))
	votes.all(c("poolsByIdVotesAll"))
}

// liveStake is the pool's current delegators' live stake (delegatorsSQL).
func (s *stack) liveStake(t *testing.T, pool string) int64 {
	t.Helper()
	var live int64
	s.sql(t, &live, `SELECT COALESCE(sum(split_part(d, ' ', 2)::numeric), 0)::bigint FROM (`+delegatorsSQL+`) x(d)`, pool)
	return live
}
