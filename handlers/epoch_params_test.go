package handlers

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"reflect"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/syncgate/syncgate/dbsync"
	"github.com/syncgate/syncgate/internal/answer"
)

// epochParamsExpected builds, in SQL alone, what GET
// /v1/epochs/:epoch/parameters answers for epoch e: every Blockfrost
// field from its epoch_param column (min_utxo is coins_per_utxo_size once
// it exists), as one JSON object (built in two: a function takes at most
// 100 arguments).
const epochParamsExpected = `SELECT (jsonb_build_object(
  'epoch', ep.epoch_no, 'min_fee_a', ep.min_fee_a, 'min_fee_b', ep.min_fee_b,
  'max_block_size', ep.max_block_size, 'max_tx_size', ep.max_tx_size, 'max_block_header_size', ep.max_bh_size,
  'key_deposit', ep.key_deposit::text, 'pool_deposit', ep.pool_deposit::text,
  'e_max', ep.max_epoch, 'n_opt', ep.optimal_pool_count, 'a0', ep.influence, 'rho', ep.monetary_expand_rate,
  'tau', ep.treasury_growth_rate, 'decentralisation_param', ep.decentralisation,
  'extra_entropy', encode(ep.extra_entropy, 'hex'),
  'protocol_major_ver', ep.protocol_major, 'protocol_minor_ver', ep.protocol_minor,
  'min_utxo', COALESCE(ep.coins_per_utxo_size, ep.min_utxo_value)::text, 'min_pool_cost', ep.min_pool_cost::text,
  'nonce', encode(ep.nonce, 'hex'),
  'cost_models', (SELECT cm.costs::jsonb FROM cost_model cm WHERE cm.id = ep.cost_model_id),
  'cost_models_raw', (SELECT cm.costs::jsonb FROM cost_model cm WHERE cm.id = ep.cost_model_id),
  'price_mem', ep.price_mem, 'price_step', ep.price_step,
  'max_tx_ex_mem', ep.max_tx_ex_mem::text) || jsonb_build_object('max_tx_ex_steps', ep.max_tx_ex_steps::text,
  'max_block_ex_mem', ep.max_block_ex_mem::text, 'max_block_ex_steps', ep.max_block_ex_steps::text,
  'max_val_size', ep.max_val_size::text, 'collateral_percent', ep.collateral_percent,
  'max_collateral_inputs', ep.max_collateral_inputs,
  'coins_per_utxo_size', ep.coins_per_utxo_size::text, 'coins_per_utxo_word', ep.coins_per_utxo_size::text,
  'pvt_motion_no_confidence', ep.pvt_motion_no_confidence, 'pvt_committee_normal', ep.pvt_committee_normal,
  'pvt_committee_no_confidence', ep.pvt_committee_no_confidence, 'pvt_hard_fork_initiation', ep.pvt_hard_fork_initiation,
  'dvt_motion_no_confidence', ep.dvt_motion_no_confidence, 'dvt_committee_normal', ep.dvt_committee_normal,
  'dvt_committee_no_confidence', ep.dvt_committee_no_confidence, 'dvt_update_to_constitution', ep.dvt_update_to_constitution,
  'dvt_hard_fork_initiation', ep.dvt_hard_fork_initiation, 'dvt_p_p_network_group', ep.dvt_p_p_network_group,
  'dvt_p_p_economic_group', ep.dvt_p_p_economic_group, 'dvt_p_p_technical_group', ep.dvt_p_p_technical_group,
  'dvt_p_p_gov_group', ep.dvt_p_p_gov_group, 'dvt_treasury_withdrawal', ep.dvt_treasury_withdrawal,
  'committee_min_size', ep.committee_min_size::text, 'committee_max_term_length', ep.committee_max_term_length::text,
  'gov_action_lifetime', ep.gov_action_lifetime::text, 'gov_action_deposit', ep.gov_action_deposit::text,
  'drep_deposit', ep.drep_deposit::text, 'drep_activity', ep.drep_activity::text,
  'pvtpp_security_group', ep.pvtpp_security_group, 'pvt_p_p_security_group', ep.pvtpp_security_group,
  'min_fee_ref_script_cost_per_byte', ep.min_fee_ref_script_cost_per_byte))::text
FROM epoch_param ep WHERE ep.epoch_no = $1`

// checkEpochParams compares an answer's data with epochParamsExpected
// field by field: the same fields, strings equal, numbers equal as
// float64 (PostgreSQL and Go spell a double differently), cost models
// equal as JSON.
func checkEpochParams(t *testing.T, c *testChain, epoch int64, data []byte) {
	t.Helper()
	var wantText string
	if err := c.raw.Get(&wantText, epochParamsExpected, epoch); err != nil {
		t.Fatalf("%s epoch %d: %v", c.mode, epoch, err)
	}
	var got, want map[string]any
	decodeExact(t, data, &got)
	decodeExact(t, []byte(wantText), &want)
	if !reflect.DeepEqual(sortedKeys(got), sortedKeys(want)) {
		t.Fatalf("%s epoch %d: fields %v, want %v", c.mode, epoch, sortedKeys(got), sortedKeys(want))
	}
	for k, w := range want {
		g := got[k]
		switch w := w.(type) {
		case json.Number:
			gn, ok := g.(json.Number)
			wf, _ := w.Float64()
			if gf, err := gn.Float64(); !ok || err != nil || gf != wf {
				t.Errorf("%s epoch %d: %s = %#v, want the number %s", c.mode, epoch, k, g, w)
			}
		default:
			if !reflect.DeepEqual(g, w) {
				t.Errorf("%s epoch %d: %s = %#v, want %#v", c.mode, epoch, k, g, w)
			}
		}
	}
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// TestEpochParameters: every epoch's parameters, and the latest, field by
// field against SQL on each seeded chain, with the Conway fields set where
// the chain is in Conway, and last_updated the tip.
func TestEpochParameters(t *testing.T) {
	for _, c := range seededChains(t) {
		s := chainServer(t, c)
		var epochs []int64
		if err := c.raw.Select(&epochs, `SELECT DISTINCT epoch_no FROM epoch_param ORDER BY 1`); err != nil || len(epochs) == 0 {
			t.Fatalf("%s: epochs with parameters %v (%v)", c.mode, epochs, err)
		}
		var cur int64
		if err := c.raw.Get(&cur, `SELECT epoch_no FROM block WHERE slot_no IS NOT NULL ORDER BY slot_no DESC LIMIT 1`); err != nil {
			t.Fatal(err)
		}
		if epochs[len(epochs)-1] != cur {
			t.Fatalf("%s: newest parameters are of epoch %d, the tip is in %d", c.mode, epochs[len(epochs)-1], cur)
		}
		conway := 0
		for _, e := range epochs {
			r := get(t, s, fmt.Sprintf("/v1/epochs/%d/parameters", e))
			if r.Status != http.StatusOK || !r.Success {
				t.Fatalf("%s epoch %d: %d %s", c.mode, e, r.Status, r.Raw)
			}
			checkEpochParams(t, c, e, r.Data)
			checkLastUpdated(t, c, r)
			var d struct {
				DRepDeposit *string `json:"drep_deposit"`
			}
			decodeExact(t, r.Data, &d)
			if d.DRepDeposit != nil {
				conway++
			}
		}
		if conway == 0 {
			t.Errorf("%s: no epoch has Conway parameters", c.mode)
		}
		latest := get(t, s, "/v1/epochs/latest/parameters")
		if latest.Status != http.StatusOK {
			t.Fatalf("%s latest: %d %s", c.mode, latest.Status, latest.Raw)
		}
		checkEpochParams(t, c, cur, latest.Data)
		checkLastUpdated(t, c, latest)
		byNumber := get(t, s, fmt.Sprintf("/v1/epochs/%d/parameters", cur))
		if !bytes.Equal(latest.Data, byNumber.Data) {
			t.Errorf("%s: latest differs from epoch %d:\n%s\n%s", c.mode, cur, latest.Data, byNumber.Data)
		}
	}
}

// TestEpochParametersErrors: a malformed epoch or one past the next is a
// 400 naming the parameter; an epoch with no parameters (Byron, the next
// one) a 404 like the other not-founds.
func TestEpochParametersErrors(t *testing.T) {
	c := seededChains(t)[0]
	s := chainServer(t, c)
	var cur, firstShelley int64
	if err := c.raw.Get(&cur, `SELECT max(epoch_no) FROM block`); err != nil {
		t.Fatal(err)
	}
	if err := c.raw.Get(&firstShelley, `SELECT min(epoch_no) FROM epoch_param`); err != nil {
		t.Fatal(err)
	}
	beyond := fmt.Sprintf("Invalid epoch: must be an integer from 0 to %d (the current epoch + 1)", cur+1)
	for _, tc := range []struct {
		epoch  string
		status int
		msg    string
	}{
		{"abc", 400, "Invalid epoch: must be a non-negative integer"},
		{"-1", 400, "Invalid epoch: must be a non-negative integer"},
		{"1.5", 400, "Invalid epoch: must be a non-negative integer"},
		{"+3", 400, "Invalid epoch: must be a non-negative integer"},
		{"0x10", 400, "Invalid epoch: must be a non-negative integer"},
		{"%203", 400, "Invalid epoch: must be a non-negative integer"},
		{strconv.FormatInt(cur+2, 10), 400, beyond},
		{"99999999999999999999999", 400, beyond},
		{strconv.FormatInt(cur+1, 10), 404, "Epoch parameters not found"},
	} {
		r := get(t, s, "/v1/epochs/"+tc.epoch+"/parameters")
		if r.Status != tc.status || r.Success || r.Error != tc.msg {
			t.Errorf("epoch %q: %d %s, want %d %q", tc.epoch, r.Status, r.Raw, tc.status, tc.msg)
		}
	}
	if firstShelley > 0 {
		r := get(t, s, fmt.Sprintf("/v1/epochs/%d/parameters", firstShelley-1))
		if r.Status != 404 || r.Error != "Epoch parameters not found" {
			t.Errorf("Byron epoch %d: %d %s", firstShelley-1, r.Status, r.Raw)
		}
	} else {
		t.Error("the seeded chain has no Byron epoch to ask for")
	}
}

// TestEpochParametersCachedPerEpoch: an epoch's data is read once and kept
// under the network and epoch (with the tip's epoch for the current one),
// so a changed row is not seen again, while last_updated still follows
// the tip.
func TestEpochParametersCachedPerEpoch(t *testing.T) {
	c := seededChains(t)[0]
	rc := testRedis(t)
	newServer := func() *Server {
		return New(Deps{Networks: map[string]*dbsync.DB{"mainnet": c.db}, Credentials: testCredentials, Redis: rc, Log: quietLog})
	}
	var cur, past int64
	if err := c.raw.Get(&cur, `SELECT max(epoch_no) FROM block`); err != nil {
		t.Fatal(err)
	}
	if err := c.raw.Get(&past, `SELECT max(epoch_no) FROM epoch_param WHERE epoch_no < $1`, cur); err != nil {
		t.Fatal(err)
	}
	paths := map[string]string{
		fmt.Sprintf("/v1/epochs/%d/parameters", past): rc.Key("epochparams", fmt.Sprintf("mainnet:%d", past)),
		fmt.Sprintf("/v1/epochs/%d/parameters", cur):  rc.Key("epochparams", fmt.Sprintf("mainnet:%d:at:%d", cur, cur)),
		"/v1/epochs/latest/parameters":                rc.Key("epochparams", fmt.Sprintf("mainnet:latest:at:%d", cur)),
	}
	first := map[string]response{}
	for path, key := range paths {
		first[path] = get(t, newServer(), path)
		if first[path].Status != 200 {
			t.Fatalf("%s: %d %s", path, first[path].Status, first[path].Raw)
		}
		stored, err := rc.Redis().Get(t.Context(), key).Bytes()
		if err != nil || !bytes.Equal(stored, first[path].Data) {
			t.Fatalf("%s: Redis %s holds %.80s (%v), want the answer's data", path, key, stored, err)
		}
	}
	// Change the rows behind the cached answers; the new server (empty
	// process memory) must still answer from Redis.
	if _, err := c.raw.Exec(`UPDATE epoch_param SET min_fee_a = min_fee_a + 1 WHERE epoch_no IN ($1, $2)`, past, cur); err != nil {
		t.Fatal(err)
	}
	defer func() {
		if _, err := c.raw.Exec(`UPDATE epoch_param SET min_fee_a = min_fee_a - 1 WHERE epoch_no IN ($1, $2)`, past, cur); err != nil {
			t.Fatal(err)
		}
	}()
	for path := range paths {
		again := get(t, newServer(), path)
		if again.Status != 200 || !bytes.Equal(again.Data, first[path].Data) {
			t.Errorf("%s: answered again %s, want the cached %s", path, again.Data, first[path].Data)
		}
		checkLastUpdated(t, c, again)
	}
	// Another Redis (nothing cached) reads the changed row.
	fresh := New(Deps{Networks: map[string]*dbsync.DB{"mainnet": c.db}, Credentials: testCredentials, Redis: testRedis(t), Log: quietLog})
	r := get(t, fresh, fmt.Sprintf("/v1/epochs/%d/parameters", past))
	var a, b struct {
		MinFeeA int64 `json:"min_fee_a"`
	}
	decodeExact(t, r.Data, &a)
	decodeExact(t, first[fmt.Sprintf("/v1/epochs/%d/parameters", past)].Data, &b)
	if a.MinFeeA != b.MinFeeA+1 {
		t.Errorf("uncached min_fee_a %d, want %d", a.MinFeeA, b.MinFeeA+1)
	}
	// The next epoch's 404 is remembered under the tip's epoch, briefly.
	next := get(t, newServer(), fmt.Sprintf("/v1/epochs/%d/parameters", cur+1))
	key := rc.Key("epochparams", fmt.Sprintf("mainnet:%d:at:%d", cur+1, cur))
	if ttl := rc.Redis().TTL(t.Context(), key).Val(); next.Status != 404 || ttl <= 0 || ttl > answer.NotFoundTTL {
		t.Errorf("next epoch: %d, remembered for %v under %s", next.Status, ttl, key)
	}
}

// TestEpochParametersLatestBeforeItsRow: while the tip's epoch has no row
// yet, /latest answers the newest earlier epoch's and keeps that only
// briefly; the epoch itself is a 404.
func TestEpochParametersLatestBeforeItsRow(t *testing.T) {
	c := seededChains(t)[0]
	rc := testRedis(t)
	s := New(Deps{Networks: map[string]*dbsync.DB{"mainnet": c.db}, Credentials: testCredentials, Redis: rc, Log: quietLog})
	var cur, prev int64
	if err := c.raw.Get(&cur, `SELECT max(epoch_no) FROM block`); err != nil {
		t.Fatal(err)
	}
	if err := c.raw.Get(&prev, `SELECT max(epoch_no) FROM epoch_param WHERE epoch_no < $1`, cur); err != nil {
		t.Fatal(err)
	}
	// Move the tip epoch's row out of reach (and back afterwards).
	if _, err := c.raw.Exec(`UPDATE epoch_param SET epoch_no = epoch_no + 1000000 WHERE epoch_no = $1`, cur); err != nil {
		t.Fatal(err)
	}
	defer func() {
		if _, err := c.raw.Exec(`UPDATE epoch_param SET epoch_no = epoch_no - 1000000 WHERE epoch_no = $1`, cur+1000000); err != nil {
			t.Fatal(err)
		}
	}()
	latest := get(t, s, "/v1/epochs/latest/parameters")
	if latest.Status != 200 {
		t.Fatalf("latest: %d %s", latest.Status, latest.Raw)
	}
	checkEpochParams(t, c, prev, latest.Data)
	key := rc.Key("epochparams", fmt.Sprintf("mainnet:latest:at:%d", cur))
	if ttl := rc.Redis().TTL(t.Context(), key).Val(); ttl <= 0 || ttl > 5*time.Second {
		t.Errorf("an earlier epoch's parameters kept %v as the latest", ttl)
	}
	if r := get(t, s, fmt.Sprintf("/v1/epochs/%d/parameters", cur)); r.Status != 404 || r.Error != "Epoch parameters not found" {
		t.Errorf("epoch %d without its row: %d %s", cur, r.Status, r.Raw)
	}
}
