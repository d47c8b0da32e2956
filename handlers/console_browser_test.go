package handlers

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	cdplog "github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"github.com/syncgate/syncgate/admin"
	"github.com/syncgate/syncgate/auth"
	"github.com/syncgate/syncgate/cache"
	"github.com/syncgate/syncgate/config"
	"github.com/syncgate/syncgate/dbsync"
)

// TestConsoleInBrowser drives the real console in headless Chromium
// against a real server (seeded chain, admin database, Redis): sign in,
// create a user and a key, use the key for data requests, see them in the
// charts, roll and revoke the key, see it refused, sign out; the bootstrap
// key's views too. Any console error, uncaught exception, CSP violation or
// request to another origin fails it.
//
// With SYNCGATE_CONSOLE_SCREENSHOTS=1 it also writes the screenshots in
// docs/console (1280 and 390 pixels wide).
func TestConsoleInBrowser(t *testing.T) {
	requireServices(t) // and Chromium
	chain := seededChains(t)[0]
	env := newAdminEnv(t)
	fast := cache.NewFastClient(env.redis, cache.FastOptions{})
	authn := auth.New(auth.Options{DB: env.db, Redis: fast, Log: quiet, RetryInterval: time.Second})
	store := admin.NewStore(env.db, admin.Options{BootstrapAdminKey: testBootstrapKey, Invalidator: authn, Log: quiet})
	rec := admin.NewUsageRecorder(env.db, time.Hour, quiet) // flushed by the test, as the other usage tests do
	t.Cleanup(func() { store.Close(); authn.Close(); fast.Close() })
	srv := New(Deps{
		Config:      config.Config{StatementTimeout: 10 * time.Second},
		Networks:    map[string]*dbsync.DB{"mainnet": chain.db},
		Redis:       env.redis,
		Credentials: authn,
		Admin:       store,
		Limiter:     cache.NewLimiter(fast, time.Now),
		Usage:       rec,
		Log:         slog.New(slog.NewJSONHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelError})),
	})
	ts := httptest.NewServer(srv.Handler())
	t.Cleanup(ts.Close)

	// The partner's admin key comes from the bootstrap key, as in production.
	var created struct {
		Data struct {
			Key string `json:"key"`
		} `json:"data"`
	}
	httpJSON(t, "POST", ts.URL+"/v1/admin/keys", testBootstrapKey,
		`{"admin_entity_name":"Acme Partners","permissions":["manage_users","manage_credentials","view_usage","view_audit_logs"]}`, 201, &created)
	partnerKey := created.Data.Key

	ctx, must, finish := startBrowser(t, ts.URL)
	defer finish()
	shots := newScreenshots(t, ctx)
	began := time.Now()

	// The page and its policy.
	resp, err := http.Get(ts.URL + "/console")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if csp := resp.Header.Get("Content-Security-Policy"); !strings.Contains(csp, "script-src 'self'") || !strings.Contains(csp, "frame-ancestors 'none'") || strings.Contains(csp, "unsafe") {
		t.Fatalf("Content-Security-Policy %q", csp)
	}

	// A wrong key: the API's words on the sign-in form.
	must("open the console", chromedp.Navigate(ts.URL+"/console"), chromedp.WaitVisible(chromedp.ID("signin-key")))
	shots.take("signin", "")
	must("sign in with a wrong key",
		chromedp.SendKeys(chromedp.ID("signin-key"), "sga1_"+strings.Repeat("0", 48)), chromedp.Click(chromedp.ID("signin-submit")),
		chromedp.WaitVisible(chromedp.CSS("#signin .alert")))
	wantText(t, ctx, "#signin .alert", "Invalid API key")

	must("sign in", chromedp.SetValue(chromedp.ID("signin-key"), partnerKey),
		chromedp.Click(chromedp.ID("signin-submit")), chromedp.WaitVisible(chromedp.ID("new-user")))
	if stored := eval[string](t, ctx, `sessionStorage.getItem('syncgate.console.adminKey')`); stored != partnerKey {
		t.Fatalf("key in sessionStorage %q", stored)
	}
	if c := eval[string](t, ctx, `document.cookie`); c != "" || strings.Contains(eval[string](t, ctx, `location.href`), partnerKey) {
		t.Fatalf("the key leaked into a cookie %q or the URL", c)
	}

	// A user and an API key.
	must("create a user", chromedp.Click(chromedp.ID("new-user")), chromedp.WaitVisible(chromedp.CSS("dialog[open] #f-name")),
		chromedp.SendKeys(chromedp.CSS("dialog[open] #f-name"), "Acme Wallet"),
		chromedp.SendKeys(chromedp.CSS("dialog[open] #f-external_id"), "cust-0042"),
		chromedp.SendKeys(chromedp.CSS("dialog[open] #f-email"), "ops@acme.example"),
		chromedp.Click(chromedp.CSS("dialog[open] button[type=submit]")), chromedp.WaitVisible(chromedp.ID("suspend-user")))
	must("create a key", chromedp.Click(chromedp.ID("new-credential")), chromedp.WaitVisible(chromedp.CSS("dialog[open] #f-name")),
		chromedp.Clear(chromedp.CSS("dialog[open] #f-name")), chromedp.SendKeys(chromedp.CSS("dialog[open] #f-name"), "mobile app"),
		chromedp.Click(chromedp.CSS("dialog[open] button[type=submit]")), chromedp.WaitVisible(chromedp.ID("new-key")))
	apiKey := value(t, ctx, "#new-key")
	if !strings.HasPrefix(apiKey, "sgk1_") || len(apiKey) != 53 {
		t.Fatalf("new key shown %q", apiKey)
	}
	wantText(t, ctx, "dialog[open] .warn", "only time the full key is shown")
	// How to use it, Blockfrost clients included (Mesh takes the key in the path).
	wantText(t, ctx, "dialog[open] .key-usage", `project_id: `+apiKey)
	wantText(t, ctx, "dialog[open] .key-usage", `/key/`+apiKey+`/api/v0")`)
	shots.take("key-created", "")
	must("close the key dialog", chromedp.Click(chromedp.CSS("dialog[open] .btn.primary")), chromedp.WaitVisible(chromedp.CSS("[data-credential]")))
	if v := eval[int](t, ctx, `document.querySelectorAll('input').length && [...document.querySelectorAll('input')].filter(i => i.value.startsWith('sgk1_')).length`); v != 0 {
		t.Fatal("the key is still in the page after its dialog closed")
	}
	if v := eval[bool](t, ctx, `document.body.innerHTML.includes('`+apiKey+`')`); v {
		t.Fatal("the key's usage snippets are still in the page after its dialog closed")
	}
	credID := attr(t, ctx, "[data-credential]", "data-credential")
	userURL := eval[string](t, ctx, `location.href`)

	// Data requests with the key on the seeded chain: 5 answered, 2 refused as bad input.
	ordinary := chain.manifest.Txs.Ordinary.Hash
	for i := 0; i < 5; i++ {
		dataCall(t, ts.URL+"/v1/tx/hash/"+ordinary, apiKey, 200, "")
	}
	dataCall(t, ts.URL+"/v1/tx/hash/zz", apiKey, 400, "")
	dataCall(t, ts.URL+"/v1/utxos/address/nope", apiKey, 400, "")
	if err := rec.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	var stored [3]int64
	if err := env.db.QueryRow(`SELECT COALESCE(sum(total_requests), 0), COALESCE(sum(successful_requests), 0), COALESCE(sum(failed_requests), 0)
		FROM syncgate.usage_hourly WHERE credential_id = $1`, credID).Scan(&stored[0], &stored[1], &stored[2]); err != nil {
		t.Fatal(err)
	}
	if stored != [3]int64{7, 5, 2} {
		t.Fatalf("stored usage %v, want 7 total, 5 ok, 2 failed", stored)
	}

	// The charts count them.
	must("open the key's usage", chromedp.Click(chromedp.CSS(`[data-credential] a[href^="#/usage/credential/"]`)), chromedp.WaitVisible(chromedp.ID("chart-hourly")))
	for _, chart := range []string{"#chart-daily", "#chart-hourly"} {
		if got := [3]string{attr(t, ctx, chart, "data-total"), attr(t, ctx, chart, "data-ok"), attr(t, ctx, chart, "data-failed")}; got != [3]string{"7", "5", "2"} {
			t.Errorf("%s counts %v, want 7 5 2", chart, got)
		}
		wantText(t, ctx, chart+" .chart-total", "7 requests: 5 successful, 2 failed")
	}
	if n := eval[int](t, ctx, `document.querySelectorAll('#chart-daily .bar').length`); n != 30 {
		t.Errorf("daily chart has %d bars, want 30", n)
	}
	if n := eval[int](t, ctx, `document.querySelectorAll('#chart-hourly .bar').length`); n != 48 {
		t.Errorf("hourly chart has %d bars, want 48", n)
	}
	if n := eval[int](t, ctx, `document.querySelectorAll('#chart-hourly rect.failed').length`); n != 1 {
		t.Errorf("hourly chart has %d failed segments, want 1 (this hour)", n)
	}
	shots.take("credential-usage", "")
	must("usage overview", chromedp.Navigate(ts.URL+"/console#/usage"), chromedp.WaitVisible(chromedp.CSS(`table[aria-label="Usage by key"]`)))
	wantText(t, ctx, `table[aria-label="Top users"]`, "Acme Wallet")
	shots.take("usage", "")
	must("the user's usage", chromedp.Click(chromedp.CSS(`table[aria-label="Top users"] a`)), chromedp.WaitVisible(chromedp.ID("chart-user-daily")))
	if got := attr(t, ctx, "#chart-user-daily", "data-total"); got != "7" {
		t.Errorf("user chart total %s, want 7", got)
	}

	// Roll with an overlap: both keys work; then revoke: both refused.
	must("back to the user", chromedp.Navigate(userURL), chromedp.WaitVisible(chromedp.CSS(`[data-credential] [data-action=roll]`)))
	shots.take("user", "")
	must("roll the key", chromedp.Click(chromedp.CSS(`[data-credential] [data-action=roll]`)), chromedp.WaitVisible(chromedp.CSS("dialog[open] #f-expires_in_seconds")),
		chromedp.SetValue(chromedp.CSS("dialog[open] #f-expires_in_seconds"), "600"),
		chromedp.Click(chromedp.CSS("dialog[open] button[type=submit]")), chromedp.WaitVisible(chromedp.ID("new-key")))
	rolled := value(t, ctx, "#new-key")
	if !strings.HasPrefix(rolled, "sgk1_") || rolled == apiKey {
		t.Fatalf("rolled key %q", rolled)
	}
	must("close the rolled key", chromedp.Click(chromedp.CSS("dialog[open] .btn.primary")), chromedp.WaitVisible(chromedp.CSS(`[data-credential] [data-action=revoke]`)))
	dataCall(t, ts.URL+"/v1/tx/hash/"+ordinary, rolled, 200, "")
	dataCall(t, ts.URL+"/v1/tx/hash/"+ordinary, apiKey, 200, "") // the overlap
	must("revoke the key", chromedp.Click(chromedp.CSS(`[data-credential] [data-action=revoke]`)), chromedp.WaitVisible(chromedp.CSS("dialog[open] button[type=submit]")),
		chromedp.Click(chromedp.CSS("dialog[open] button[type=submit]")), chromedp.WaitVisible(chromedp.CSS(".badge.revoked")))
	dataCall(t, ts.URL+"/v1/tx/hash/"+ordinary, rolled, 401, "API key has been revoked")
	dataCall(t, ts.URL+"/v1/tx/hash/"+ordinary, apiKey, 401, "")

	must("audit log", chromedp.Navigate(ts.URL+"/console#/audit"), chromedp.WaitVisible(chromedp.CSS(`table[aria-label="Audit log"]`)))
	wantText(t, ctx, `table[aria-label="Audit log"]`, "credential.revoked")
	shots.take("audit", "")
	must("users list", chromedp.Navigate(ts.URL+"/console#/users"), chromedp.WaitVisible(chromedp.CSS(`table[aria-label="Users"]`)))
	shots.take("users", "")

	must("sign out", chromedp.Click(chromedp.ID("signout")), chromedp.WaitVisible(chromedp.ID("signin-key")))
	if n := eval[int](t, ctx, `sessionStorage.length`); n != 0 {
		t.Fatalf("sessionStorage holds %d items after sign-out", n)
	}
	must("reload after sign-out", chromedp.Reload(), chromedp.WaitVisible(chromedp.ID("signin-key")))

	shots.phone(map[string]string{
		"credential-usage": "#/usage/credential/" + credID,
		"usage":            "#/usage",
		"user":             "#" + strings.SplitN(userURL, "#", 2)[1],
		"users":            "#/users",
	}, partnerKey, ts.URL)

	// The bootstrap key sees admin keys and security events (the wrong key
	// above is one).
	must("sign in as bootstrap", chromedp.SendKeys(chromedp.ID("signin-key"), testBootstrapKey), chromedp.Click(chromedp.ID("signin-submit")),
		chromedp.WaitVisible(chromedp.CSS(`table[aria-label="Admin keys"]`)))
	wantText(t, ctx, `table[aria-label="Admin keys"]`, "Acme Partners")
	shots.take("admin-keys", "")
	must("security events", chromedp.Navigate(ts.URL+"/console#/security"), chromedp.WaitVisible(chromedp.CSS(`table[aria-label="Security events"]`)))
	wantText(t, ctx, `table[aria-label="Security events"]`, "GET /v1/admin/me")
	shots.take("security-events", "")

	// A key revoked while signed in: the next call returns to sign-in with the API's words.
	must("sign out bootstrap", chromedp.Click(chromedp.ID("signout")), chromedp.WaitVisible(chromedp.ID("signin-key")),
		chromedp.SendKeys(chromedp.ID("signin-key"), partnerKey), chromedp.Click(chromedp.ID("signin-submit")), chromedp.WaitVisible(chromedp.ID("new-user")))
	var keys struct {
		Data []struct {
			ID string `json:"id"`
		} `json:"data"`
	}
	httpJSON(t, "GET", ts.URL+"/v1/admin/keys", testBootstrapKey, "", 200, &keys)
	for _, k := range keys.Data {
		httpJSON(t, "DELETE", ts.URL+"/v1/admin/keys/"+k.ID, testBootstrapKey, "", 200, nil)
	}
	must("a 401 returns to sign-in", chromedp.Navigate(ts.URL+"/console#/audit"), chromedp.WaitVisible(chromedp.CSS("#signin .alert")))
	wantText(t, ctx, "#signin .alert", "Invalid API key")
	if n := eval[int](t, ctx, `sessionStorage.length`); n != 0 {
		t.Fatal("a 401 left the key in sessionStorage")
	}

	t.Logf("browser session took %s", time.Since(began).Round(time.Millisecond))
}

// startBrowser starts headless Chromium on a fresh profile (stopped when
// the test ends), watching the page: finish (deferred by the caller) fails the
// test on any console error or warning, uncaught exception, CSP violation
// or request to another origin than base. must runs one step with its own
// deadline and shows the page when it fails.
func startBrowser(t *testing.T, base string) (ctx context.Context, must func(what string, actions ...chromedp.Action[chromedp.Void]), finish func()) {
	t.Helper()
	browser := findChromium(t)
	limit := 150 * time.Second // generous: the machine running the suite may be busy
	if os.Getenv("SYNCGATE_CONSOLE_SCREENSHOTS") != "" {
		limit *= 2
	}
	ctx, cancel := context.WithTimeout(t.Context(), limit)
	t.Cleanup(cancel)
	ctx, cancel = chromedp.NewExecAllocator(ctx,
		chromedp.ExecPath(browser), chromedp.UserDataDir(t.TempDir()), chromedp.WindowSize(1280, 900),
		chromedp.Headless, chromedp.NoSandbox, chromedp.DisableGPU, chromedp.NoFirstRun,
		chromedp.Flag("disable-quic", true), chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true), chromedp.Flag("disable-sync", true))
	t.Cleanup(cancel)
	ctx, cancel = chromedp.NewContext(ctx)
	t.Cleanup(cancel)

	var mu sync.Mutex
	var problems, foreign []string
	origin := base + "/"
	if err := chromedp.Listen(ctx, func(ev any) {
		mu.Lock()
		defer mu.Unlock()
		switch ev := ev.(type) {
		case *runtime.EventConsoleAPICalled:
			if ev.Type == runtime.ConsoleAPICalledTypeError || ev.Type == runtime.ConsoleAPICalledTypeWarning || ev.Type == runtime.ConsoleAPICalledTypeAssert {
				var args []string
				for _, a := range ev.Args {
					args = append(args, string(a.Value)+a.Description)
				}
				problems = append(problems, fmt.Sprintf("console.%s: %s", ev.Type, strings.Join(args, " ")))
			}
		case *runtime.EventExceptionThrown:
			problems = append(problems, "exception: "+(&chromedp.ExceptionError{ExceptionDetails: ev.ExceptionDetails}).Error())
		case *cdplog.EventEntryAdded:
			// Refused API calls (4xx) are logged by the network source; the
			// console shows them itself. Everything else at error level
			// (a CSP violation, a script that failed to load) is a defect.
			if ev.Entry.Level == cdplog.EntryLevelError && ev.Entry.Source != cdplog.EntrySourceNetwork {
				problems = append(problems, fmt.Sprintf("log %s: %s %s", ev.Entry.Source, ev.Entry.Text, ev.Entry.URL))
			}
		case *network.EventRequestWillBeSent:
			if u := ev.Request.URL; !strings.HasPrefix(u, origin) && !strings.HasPrefix(u, "data:") && u != "about:blank" {
				foreign = append(foreign, u)
			}
		}
	}); err != nil {
		t.Fatal(err)
	}
	must = func(what string, actions ...chromedp.Action[chromedp.Void]) {
		t.Helper()
		step, cancel := context.WithTimeout(ctx, 25*time.Second)
		defer cancel()
		if err := chromedp.Do(step, actions...); err != nil {
			page, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`location.hash + "\n" + document.body.innerText`))
			mu.Lock()
			defer mu.Unlock()
			t.Fatalf("%s: %v\npage: %s\nconsole: %v", what, err, page, problems)
		}
	}
	if _, err := chromedp.Call(ctx, cdplog.Enable, cdp.Empty{}); err != nil {
		t.Fatal(err)
	}
	if _, err := chromedp.Call(ctx, network.Enable, network.EnableParams{}); err != nil {
		t.Fatal(err)
	}
	finish = func() {
		mu.Lock()
		defer mu.Unlock()
		if len(problems) > 0 {
			t.Errorf("browser console:\n%s", strings.Join(problems, "\n"))
		}
		if len(foreign) > 0 {
			t.Errorf("requests to other origins: %v", foreign)
		}
	}
	return ctx, must, finish
}

// findChromium returns the browser to drive; make test installs Debian's
// chromium when it is missing.
func findChromium(t *testing.T) string {
	for _, name := range []string{os.Getenv("CHROMIUM"), "chromium", "chromium-browser", "google-chrome"} {
		if name == "" {
			continue
		}
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	t.Fatal("no Chromium: apt-get install -y chromium (make test and .ci/services install it), or set CHROMIUM")
	return ""
}

func eval[T any](t *testing.T, ctx context.Context, js string) T {
	t.Helper()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](js))
	if err != nil {
		t.Fatalf("%s: %v", js, err)
	}
	return v
}

func value(t *testing.T, ctx context.Context, sel string) string {
	t.Helper()
	v, err := chromedp.Run(ctx, chromedp.Value(chromedp.CSS(sel)))
	if err != nil {
		t.Fatalf("value of %s: %v", sel, err)
	}
	return v
}

func attr(t *testing.T, ctx context.Context, sel, name string) string {
	t.Helper()
	v, err := chromedp.Run(ctx, chromedp.AttributeValue(chromedp.CSS(sel), name))
	if err != nil || !v.Exists {
		t.Fatalf("%s of %s: %v", name, sel, err)
	}
	return v.Value
}

func wantText(t *testing.T, ctx context.Context, sel, want string) {
	t.Helper()
	got, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS(sel)))
	if err != nil {
		t.Fatalf("text of %s: %v", sel, err)
	}
	if !strings.Contains(got, want) {
		t.Fatalf("%s shows %q, want %q in it", sel, got, want)
	}
}

// dataCall sends one data request with key and checks the status (and the
// error message when msg is given).
func dataCall(t *testing.T, url, key string, status int, msg string) {
	t.Helper()
	var env struct {
		Error string `json:"error"`
	}
	httpJSON(t, "GET", url, key, "", status, &env)
	if msg != "" && env.Error != msg {
		t.Fatalf("GET %s: error %q, want %q", url, env.Error, msg)
	}
}

func httpJSON(t *testing.T, method, url, key, body string, status int, out any) {
	t.Helper()
	req, err := http.NewRequest(method, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+key)
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != status {
		t.Fatalf("%s %s: %d %s, want %d", method, url, resp.StatusCode, raw, status)
	}
	if out != nil {
		if err := json.Unmarshal(raw, out); err != nil {
			t.Fatalf("%s %s: %v in %s", method, url, err, raw)
		}
	}
}

// screenshots writes docs/console/<name>-<width>.png when
// SYNCGATE_CONSOLE_SCREENSHOTS is set, and does nothing otherwise.
type screenshots struct {
	t   *testing.T
	ctx context.Context
	dir string
}

func newScreenshots(t *testing.T, ctx context.Context) *screenshots {
	if os.Getenv("SYNCGATE_CONSOLE_SCREENSHOTS") == "" {
		return &screenshots{t: t, ctx: ctx}
	}
	dir := filepath.Join("..", "docs", "console")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	return &screenshots{t: t, ctx: ctx, dir: dir}
}

func (s *screenshots) take(name, suffix string) {
	s.t.Helper()
	if s.dir == "" {
		return
	}
	if suffix == "" {
		suffix = "1280"
	}
	png, err := chromedp.Run(s.ctx, chromedp.FullScreenshot(100))
	if err != nil {
		s.t.Fatalf("screenshot %s: %v", name, err)
	}
	if err := os.WriteFile(filepath.Join(s.dir, name+"-"+suffix+".png"), png, 0o644); err != nil {
		s.t.Fatal(err)
	}
}

// phone signs in again on a 390-pixel viewport and shoots the given views.
func (s *screenshots) phone(views map[string]string, key, base string) {
	s.t.Helper()
	if s.dir == "" {
		return
	}
	if err := chromedp.Do(s.ctx, chromedp.EmulateViewport(390, 844, chromedp.EmulateScale(2)),
		chromedp.Navigate(base+"/console"), chromedp.WaitVisible(chromedp.ID("signin-key"))); err != nil {
		s.t.Fatal(err)
	}
	s.take("signin", "390")
	// Signed in, the console reopens the last view, whichever it was.
	if err := chromedp.Do(s.ctx, chromedp.SendKeys(chromedp.ID("signin-key"), key), chromedp.Click(chromedp.ID("signin-submit")),
		chromedp.WaitVisible(chromedp.CSS(".view > *"))); err != nil {
		s.t.Fatal(err)
	}
	for name, hash := range views {
		if err := chromedp.Do(s.ctx, chromedp.Navigate(base+"/console"+hash), chromedp.WaitVisible(chromedp.CSS(".view > *")), chromedp.Sleep(300*time.Millisecond)); err != nil {
			s.t.Fatal(err)
		}
		s.take(name, "390")
	}
	if err := chromedp.Do(s.ctx, chromedp.Click(chromedp.ID("signout")), chromedp.WaitVisible(chromedp.ID("signin-key")),
		chromedp.EmulateViewport(1280, 900)); err != nil {
		s.t.Fatal(err)
	}
}
