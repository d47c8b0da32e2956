package handlers

import (
	"github.com/syncgate/syncgate/dbsync"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"testing"
)

// bfParam is a path parameter of a dialect route.
var bfParam = regexp.MustCompile(`:[A-Za-z_]+`)

// bfNastyValues are path and query values no route may answer with a 5xx
// or a panic: malformed identifiers of every kind, other networks' ids,
// numbers at and past every bound, encodings and control characters.
var bfNastyValues = []string{
	"", "0", "-1", "1", "00", "latest", "9223372036854775807", "9223372036854775808", "99999999999999999999",
	"1.5", "1e3", "0x10", " 1", "%00", "\x00", "é", "../..", "' OR 1=1 --", strings.Repeat("a", 64),
	strings.Repeat("g", 64), strings.Repeat("0", 56), strings.Repeat("f", 128), strings.Repeat("A", 129),
	"addr1", "addr_test1qz2fxv2umyhttkxyxp8x0dlpdt3k6cwng5pxj3jhsydzer3jcu5d8ps7zex2k2xt3uqxgjqnnj83ws8lhrn648jjxtwq2ytjqp",
	"stake1uyehkck0lajq8gr28t9uxnuvgcqrc6070x3k9r8048z8y5gh6ffgw", "pool1pu5jlj4q9w9jlxeu370a3c9myx47md5j5m2str0naunn2qnikdy",
	"asset1rjklcrnsdzqp65wjgrg55sy9723kw09mlgvlc3", "ed25519_sk1", strings.Repeat("ab", 4096),
	// Asset units and policies (56 hex and a name of 0-64 hex), labels.
	strings.Repeat("0", 57), strings.Repeat("a", 56) + strings.Repeat("b", 64), strings.Repeat("a", 56) + strings.Repeat("b", 66),
	strings.Repeat("A", 56) + "000de140", "18446744073709551615", "+721", "0721", "721",
}

// FuzzBlockfrostRoutes asks every dialect route with arbitrary path
// parameters and paging: whatever the input, the answer is a 2xx or a
// Blockfrost-shaped 4xx (or the designed 501/503 of routes that have
// them), never another 5xx or a panic. `go test` runs the seeds below;
// `go test -fuzz FuzzBlockfrostRoutes ./handlers` explores further.
func FuzzBlockfrostRoutes(f *testing.F) {
	for i, v := range bfNastyValues {
		f.Add(uint8(i), v, "count="+url.QueryEscape(v))
		f.Add(uint8(i*7), v, "page="+url.QueryEscape(v)+"&order="+url.QueryEscape(v))
	}
	c := seededChains(f)[0]
	// Real pool ids, bech32 and hex, with deep and reversed pages: the
	// pool routes' answers, not only their refusals.
	for i, id := range []string{c.manifest.Pools.Biggest.ID, c.manifest.Pools.Retired.Hash, c.manifest.Pools.WithMetadata.ID} {
		f.Add(uint8(i*13), id, "count=3&page=2&order=desc")
		f.Add(uint8(i*13+5), strings.ToUpper(id), "page=21474836")
	}
	routes := New(Deps{}).bf.Routes()
	// Real governance ids in every form Blockfrost accepts (DReps in
	// CIP-105, CIP-129 and hex, the predefined DReps, CIP-129 proposal ids,
	// committee hot and cold ids), each on a route that takes its kind.
	gov := c.manifest.Governance
	seeds := map[string][]string{
		":drep_id":       {gov.DRep.ID, gov.DRep.CIP129, gov.DRep.Hex, gov.DRepRetired.ID, "drep_always_abstain", "drep_always_no_confidence"},
		":gov_action_id": {gov.ActiveProposal.ID, gov.EnactedProposal.ID, gov.ExpiredProposal.ID},
		":cc_id":         {gov.CommitteeMember.HotID, gov.CommitteeMember.ColdID, gov.CommitteeResigned.ColdID},
	}
	for i, r := range routes {
		for param, ids := range seeds {
			if !strings.Contains(r.Path, param) || strings.Contains(r.Path, ":cert_index") {
				continue
			}
			for _, id := range ids {
				f.Add(uint8(i), id, "count=2&page=2&order=desc")
			}
		}
	}
	h := New(Deps{Networks: map[string]*dbsync.DB{"mainnet": c.db}, Credentials: testCredentials,
		Redis: testRedis(f), Log: quietLog}).Handler()
	// Every account route with stake addresses the chain holds (the
	// busiest, deep and far pages), a testnet one and a mangled one.
	stakes := []string{c.manifest.Accounts.Busiest, c.manifest.BusiestStakeKey.StakeAddress, c.manifest.Accounts.DRep,
		"stake_test1uqehkck0lajq8gr28t9uxnuvgcqrc6070x3k9r8048z8y5gssrtvn", strings.ToUpper(c.manifest.Accounts.Delegated)}
	for i, r := range routes {
		if strings.HasPrefix(r.Path, "/accounts/") {
			for _, v := range stakes {
				f.Add(uint8(i), v, "count=100&page=2&order=desc")
				f.Add(uint8(i), v, "page=21474836")
			}
		}
		if r.Path == "/accounts/:stake_address/transactions" {
			// from/to: a range, one past the chain, malformed ones.
			for _, q := range []string{"from=1:0&to=2147483647&order=desc&count=3&page=2", "from=2147483647", "from=9:x", "from=5&to=4", "to=0:0&order=desc"} {
				f.Add(uint8(i), c.manifest.BusiestStakeKey.StakeAddress, q)
			}
		}
	}
	f.Fuzz(func(t *testing.T, pick uint8, value, query string) {
		r := routes[int(pick)%len(routes)]
		path := bfParam.ReplaceAllStringFunc(r.Path, func(string) string { return url.PathEscape(value) })
		target := "/api/v0" + strings.TrimSuffix(path, "/")
		if path == "/" {
			target = "/api/v0"
		}
		req, err := http.NewRequest(r.Method, target+"?"+query, strings.NewReader(value))
		if err != nil {
			return // not a request a client can send
		}
		req.Header.Set("project_id", mainnetKey)
		req.Header.Set("Content-Type", "application/cbor")
		w := httptest.NewRecorder()
		h.ServeHTTP(w, req)
		switch {
		case w.Code < 500:
		case w.Code == http.StatusNotImplemented && strings.Contains(r.Path, "/evaluate"):
		case w.Code == http.StatusServiceUnavailable && (strings.HasPrefix(r.Path, "/mempool") || r.Path == "/tx/submit"):
			// no node in this test
		default:
			t.Fatalf("%s %s → %d %s", r.Method, req.URL, w.Code, w.Body.String())
		}
		if w.Code >= 400 {
			(bfResponse{Code: w.Code, Header: w.Header(), Body: w.Body.Bytes()}).errorOf(t)
		}
	})
}
