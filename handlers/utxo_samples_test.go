package handlers

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"

	"github.com/syncgate/syncgate/handlers/httpx"
)

// chainSamples are the entities the HTTP tests aim at, found with plain SQL
// on the seeded chain (the same in both modes: same seed).
type chainSamples struct {
	Whale      string
	Busy       string
	BusySlot   int64
	BusyTxs    int
	Small      string
	Byron      string
	Script     string
	Stake      string // stake1… with the most outputs
	StakeHex   string // its 56-hex credential
	FailedTx   string
	AssetsTx   string // a tx whose outputs carry several assets
	BigHolder  string // an address holding an asset quantity above 2^53
	CollatAddr string // the address of a failed tx's collateral input
	DatumAddr  string // an address holding an unspent output with a datum hash
}

var (
	samplesOnce sync.Once
	samples     chainSamples
	samplesErr  error
)

func testSamples(t *testing.T) chainSamples {
	t.Helper()
	c := seededChains(t)[0]
	samplesOnce.Do(func() { samples, samplesErr = findChainSamples(c) })
	if samplesErr != nil {
		t.Fatal(samplesErr)
	}
	return samples
}

func findChainSamples(c *testChain) (chainSamples, error) {
	var s chainSamples
	one := []struct {
		dest  any
		query string
	}{
		{&s.Whale, `SELECT address FROM tx_out GROUP BY address ORDER BY count(*) DESC, address LIMIT 1`},
		{&s.Small, `SELECT address FROM tx_out GROUP BY address HAVING count(*) BETWEEN 3 AND 30 ORDER BY md5(address) LIMIT 1`},
		{&s.Byron, `SELECT address FROM tx_out WHERE address NOT LIKE 'addr%' ORDER BY id LIMIT 1`},
		{&s.Script, `SELECT address FROM tx_out WHERE address_has_script ORDER BY id LIMIT 1`},
		{&s.Stake, `SELECT sa.view FROM stake_address sa JOIN tx_out o ON o.stake_address_id = sa.id
			GROUP BY sa.id, sa.view ORDER BY count(*) DESC, sa.id LIMIT 1`},
		{&s.StakeHex, `SELECT encode(substring(sa.hash_raw FROM 2), 'hex') FROM stake_address sa
			JOIN tx_out o ON o.stake_address_id = sa.id GROUP BY sa.id ORDER BY count(*) DESC, sa.id LIMIT 1`},
		{&s.FailedTx, `SELECT encode(hash, 'hex') FROM tx WHERE NOT valid_contract ORDER BY id LIMIT 1`},
		{&s.AssetsTx, `SELECT encode(t.hash, 'hex') FROM tx t JOIN tx_out o ON o.tx_id = t.id JOIN ma_tx_out m ON m.tx_out_id = o.id
			GROUP BY t.id ORDER BY count(DISTINCT m.ident) DESC, t.id LIMIT 1`},
		{&s.BigHolder, `SELECT o.address FROM tx_out o JOIN ma_tx_out m ON m.tx_out_id = o.id
			WHERE m.quantity > 9007199254740992 ORDER BY o.id LIMIT 1`},
		{&s.DatumAddr, `SELECT o.address FROM tx_out o WHERE o.data_hash IS NOT NULL
			AND NOT EXISTS (SELECT 1 FROM tx_in i WHERE i.tx_out_id = o.tx_id AND i.tx_out_index = o.index) ORDER BY o.id LIMIT 1`},
		{&s.CollatAddr, `SELECT address FROM (
			  SELECT o.address, o.id FROM tx t JOIN tx_in i ON i.tx_in_id = t.id
			    JOIN tx_out o ON o.tx_id = i.tx_out_id AND o.index = i.tx_out_index WHERE NOT t.valid_contract
			  UNION ALL SELECT o.address, o.id FROM tx t JOIN tx_out o ON o.consumed_by_tx_id = t.id WHERE NOT t.valid_contract
			) a ORDER BY id LIMIT 1`},
	}
	for _, q := range one {
		if err := c.raw.Get(q.dest, q.query); err != nil {
			return s, err
		}
	}
	var busy struct {
		Address string `db:"address"`
		Slot    int64  `db:"slot_no"`
		N       int    `db:"n"`
	}
	err := c.raw.Get(&busy, `SELECT o.address, b.slot_no, count(DISTINCT t.id) AS n
		FROM tx_out o JOIN tx t ON t.id = o.tx_id JOIN block b ON b.id = t.block_id
		WHERE b.slot_no IS NOT NULL GROUP BY o.address, b.slot_no ORDER BY n DESC, o.address LIMIT 1`)
	s.Busy, s.BusySlot, s.BusyTxs = busy.Address, busy.Slot, busy.N
	if m := c.manifest; m != nil { // aim at what the generator says it built
		s.Whale, s.Byron, s.Script, s.FailedTx = m.Whale.Address, m.ByronAddress.Address, m.ScriptAddress.Address, m.Txs.Failed.Hash
		s.Busy, s.BusySlot, s.BusyTxs = m.BusySlot.Address, int64(m.BusySlot.Slot), int(m.BusySlot.TxCount)
		s.Stake = m.BusiestStakeKey.StakeAddress
		err = c.raw.Get(&s.StakeHex, `SELECT encode(substring(hash_raw FROM 2), 'hex') FROM stake_address WHERE view = $1`, s.Stake)
	}
	return s, err
}

// response is a decoded httpx.Envelope; numbers stay exact (json.Number).
type response struct {
	Status      int
	Raw         []byte
	Success     bool                       `json:"success"`
	Error       string                     `json:"error"`
	Data        json.RawMessage            `json:"data"`
	Pagination  map[string]json.RawMessage `json:"pagination"`
	LastUpdated map[string]json.RawMessage `json:"last_updated"`
}

// get calls path with the mainnet test key.
func get(t *testing.T, s *Server, path string) response {
	t.Helper()
	return getWithKey(t, s, path, mainnetKey)
}

func getWithKey(t *testing.T, s *Server, path, key string) response {
	t.Helper()
	req := httptest.NewRequest(http.MethodGet, path, nil)
	req.Header.Set("Authorization", "Bearer "+key)
	w := httptest.NewRecorder()
	serveChecked(t, s.Handler(), w, req)
	r := response{Status: w.Code, Raw: w.Body.Bytes()}
	if err := json.Unmarshal(r.Raw, &r); err != nil {
		t.Fatalf("GET %s: body is not JSON: %q", path, r.Raw)
	}
	if ct := w.Header().Get("Content-Type"); ct != httpx.ContentType {
		t.Fatalf("GET %s: Content-Type %q", path, ct)
	}
	return r
}

// decodeExact decodes b keeping every number exact.
func decodeExact(t *testing.T, b []byte, v any) {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	if err := dec.Decode(v); err != nil {
		t.Fatalf("decode %.200s: %v", b, err)
	}
}
