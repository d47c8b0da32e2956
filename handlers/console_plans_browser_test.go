package handlers

import (
	"context"
	"fmt"
	"log/slog"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/syncgate/syncgate/admin"
	"github.com/syncgate/syncgate/auth"
	"github.com/syncgate/syncgate/cache"
	"github.com/syncgate/syncgate/config"
	"github.com/syncgate/syncgate/dbsync"
	"github.com/syncgate/syncgate/internal/service/quota"
)

// pinnedNoon is where TestConsolePlansInBrowser's clock starts.
var pinnedNoon = time.Date(2030, 1, 15, 12, 0, 0, 0, time.UTC)

// TestConsolePlansInBrowser drives the console's Plans page and the quota
// gauges in headless Chromium against a real server (seeded chain, admin
// database, Redis quota counters): create a plan in the page, see it
// listed, edit it, put a user on it from the user's page, see the gauges
// count the data requests made with the user's key, and see deleting the
// plan refused (409, in the API's words) while the user is on it. The same
// watch as TestConsoleInBrowser: any console error, exception, CSP
// violation or foreign request fails it.
func TestConsolePlansInBrowser(t *testing.T) {
	requireServices(t) // and Chromium
	chain := seededChains(t)[0]
	env := newAdminEnv(t)
	fast := cache.NewFastClient(env.redis, cache.FastOptions{Timeout: 2 * time.Second})
	authn := auth.New(auth.Options{DB: env.db, Redis: fast, Log: quiet, RetryInterval: time.Second})
	store := admin.NewStore(env.db, admin.Options{BootstrapAdminKey: testBootstrapKey, Invalidator: authn, Log: quiet})
	rec := admin.NewUsageRecorder(env.db, time.Hour, quiet) // flushed by the test
	t.Cleanup(func() { store.Close(); authn.Close(); fast.Close() })
	// The server's clock (quota days and months included) runs from
	// midday of a fixed day, so a run crossing 00:00 UTC counts in one day.
	began := time.Now()
	now := func() time.Time { return pinnedNoon.Add(time.Since(began)) }
	srv := New(Deps{
		Config:      config.Config{StatementTimeout: 10 * time.Second},
		Networks:    map[string]*dbsync.DB{"mainnet": chain.db},
		Redis:       env.redis,
		Credentials: authn,
		Admin:       store,
		Limiter:     cache.NewLimiter(fast, time.Now),
		Usage:       rec,
		Quota:       quota.New(quota.Options{Counter: cache.NewQuotaCounter(fast), Usage: store, Recorder: rec, Now: now, Log: quiet}),
		Now:         now,
		Log:         slog.New(slog.NewJSONHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelError})),
	})
	ts := httptest.NewServer(srv.Handler())
	t.Cleanup(ts.Close)

	// A partner, its user and the user's data key; a spare plan to delete.
	var created struct {
		Data struct {
			Key     string  `json:"key"`
			ID      string  `json:"id"`
			APIKey  string  `json:"api_key"`
			PlanID  *string `json:"plan_id"`
			Daily   *int64  `json:"daily_quota"`
			Burst   *int    `json:"burst"`
			Monthly *int64  `json:"monthly_quota"`
			Groups  []string
		} `json:"data"`
	}
	httpJSON(t, "POST", ts.URL+"/v1/admin/keys", testBootstrapKey,
		`{"admin_entity_name":"Acme Partners","permissions":["manage_users","manage_credentials","view_usage","view_audit_logs"]}`, 201, &created)
	partnerKey := created.Data.Key
	httpJSON(t, "POST", ts.URL+"/v1/admin/users", partnerKey, `{"name":"Acme Wallet"}`, 201, &created)
	userID := created.Data.ID
	httpJSON(t, "POST", ts.URL+"/v1/admin/credentials", partnerKey, `{"name":"app","user_account_id":"`+userID+`","network_id":0}`, 201, &created)
	dataKey := created.Data.APIKey
	httpJSON(t, "POST", ts.URL+"/v1/admin/plans", partnerKey, `{"name":"Spare","rate_limit_per_minute":10}`, 201, &created)
	spareID := created.Data.ID

	ctx, must, finish := startBrowser(t, ts.URL)
	defer finish()
	shots := newScreenshots(t, ctx)
	waitJS := func(what, js string) {
		t.Helper()
		step, cancel := context.WithTimeout(ctx, 25*time.Second)
		defer cancel()
		if _, err := chromedp.Run(step, chromedp.Poll[bool](js)); err != nil {
			page, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`location.hash + "\n" + document.body.innerText`))
			t.Fatalf("%s: %v\npage: %s", what, err, page)
		}
	}
	rows := func() []string {
		t.Helper()
		return eval[[]string](t, ctx, `[...document.querySelectorAll('table[aria-label="Plans"] tbody tr')].map(r => r.innerText.replace(/\s+/g, ' ').trim())`)
	}
	dlg := func(id string) chromedp.CSS { return chromedp.CSS("dialog[open] #" + id) }

	must("sign in", chromedp.Navigate(ts.URL+"/console"), chromedp.WaitVisible(chromedp.ID("signin-key")),
		chromedp.SendKeys(chromedp.ID("signin-key"), partnerKey), chromedp.Click(chromedp.ID("signin-submit")), chromedp.WaitVisible(chromedp.ID("new-user")))

	// Create a plan in the page: quotas, a burst, four route groups.
	must("open Plans", chromedp.Click(chromedp.CSS(`nav a[href="#/plans"]`)), chromedp.WaitVisible(chromedp.ID("new-plan")))
	if active := eval[string](t, ctx, `document.querySelector('nav a.active').textContent`); active != "Plans" {
		t.Errorf("nav marks %q", active)
	}
	must("new plan", chromedp.Click(chromedp.ID("new-plan")), chromedp.WaitVisible(dlg("f-name")),
		chromedp.SendKeys(dlg("f-name"), "Pro"),
		chromedp.SetValue(dlg("f-rate_limit_per_minute"), "600"),
		chromedp.SendKeys(dlg("f-daily_quota"), "1000"),
		chromedp.SendKeys(dlg("f-monthly_quota"), "20000"),
		chromedp.SendKeys(dlg("f-max_credentials_per_user"), "3"),
		chromedp.Click(dlg("f-group-mempool")))
	// A bad value: the API's message in the dialog, nothing created.
	must("a bad quota", chromedp.SetValue(dlg("f-daily_quota"), "0"), chromedp.Click(chromedp.CSS("dialog[open] button[type=submit]")),
		chromedp.WaitVisible(chromedp.CSS("dialog[open] .alert")))
	wantText(t, ctx, "dialog[open] .alert", "daily_quota must be an integer from 1 to 1000000000000, or null")
	must("create it", chromedp.SetValue(dlg("f-daily_quota"), "1000"), chromedp.Click(chromedp.CSS("dialog[open] button[type=submit]")),
		chromedp.WaitVisible(chromedp.ID("plan-note")))
	waitJS("the creation noted", `document.querySelector('#plan-note')?.textContent === 'Plan “Pro” created.'`)
	var planID string
	if err := env.db.Get(&planID, `SELECT id FROM syncgate.plans WHERE name = 'Pro'`); err != nil {
		t.Fatal(err)
	}
	httpJSON(t, "GET", ts.URL+"/v1/admin/plans/"+planID, partnerKey, "", 200, &created)
	if d := created.Data; d.Daily == nil || *d.Daily != 1000 || d.Monthly == nil || *d.Monthly != 20000 || d.Burst != nil {
		t.Fatalf("created plan %+v", d)
	}
	if got := rows(); len(got) != 2 || got[0] != "Pro 0 600 — 1,000 20,000 chain, history, submit, webhooks 3 — Edit Delete" ||
		got[1] != "Spare 0 10 — — — chain, history, submit, mempool, webhooks — — Edit Delete" {
		t.Fatalf("plan rows %q", got)
	}
	shots.take("plans", "")

	// Edit: a smaller daily quota and a burst; clearing the monthly quota.
	row := `[data-plan="` + planID + `"]`
	must("edit it", chromedp.Click(chromedp.CSS(row+` [data-action=edit]`)), chromedp.WaitVisible(dlg("f-daily_quota")))
	if v := value(t, ctx, "dialog[open] #f-daily_quota"); v != "1000" {
		t.Fatalf("the edit dialog shows daily quota %q", v)
	}
	must("save it", chromedp.SetValue(dlg("f-daily_quota"), "500"), chromedp.SendKeys(dlg("f-burst"), "20"),
		chromedp.SetValue(dlg("f-monthly_quota"), ""), chromedp.Click(chromedp.CSS("dialog[open] button[type=submit]")),
		chromedp.WaitVisible(chromedp.ID("plan-note")))
	waitJS("the edit noted", `document.querySelector('#plan-note')?.textContent.startsWith('Plan “Pro” saved.')`)
	if got := rows(); got[0] != "Pro 0 600 20 500 — chain, history, submit, webhooks 3 — Edit Delete" {
		t.Fatalf("edited row %q", got[0])
	}
	must("edit it again", chromedp.Click(chromedp.CSS(row+` [data-action=edit]`)), chromedp.WaitVisible(dlg("f-monthly_quota")),
		chromedp.SetValue(dlg("f-monthly_quota"), "20000"), chromedp.Click(chromedp.CSS("dialog[open] button[type=submit]")),
		chromedp.WaitVisible(chromedp.ID("plan-note")))
	waitJS("the monthly quota back", `document.querySelector('`+row+`')?.closest('tr').innerText.includes('20,000') === true`)

	// A user created on Pro in one step. The New user dialog's plan select
	// is labelled, offers "No plan" (chosen) and each plan; the name field
	// has focus, and cancelling gives it back to the button.
	must("Users", chromedp.Click(chromedp.CSS(`nav a[href="#/users"]`)), chromedp.WaitVisible(chromedp.ID("new-user")))
	must("new user", chromedp.Click(chromedp.ID("new-user")), chromedp.WaitVisible(dlg("f-plan_id")))
	if id := eval[string](t, ctx, `document.activeElement.id`); id != "f-name" {
		t.Errorf("the New user dialog opens with focus on %q", id)
	}
	wantText(t, ctx, `dialog[open] label[for="f-plan_id"]`, "Plan")
	options := eval[[]string](t, ctx, `[...document.querySelectorAll('dialog[open] #f-plan_id option')].map(o => o.value + '=' + o.textContent)`)
	if want := []string{"=No plan", planID + "=Pro (600/min, 500 a day, 20,000 a month)", spareID + "=Spare (10/min, no quota)"}; strings.Join(options, "|") != strings.Join(want, "|") {
		t.Fatalf("plan options %q\nwant %q", options, want)
	}
	if v := value(t, ctx, "dialog[open] #f-plan_id"); v != "" {
		t.Fatalf("the plan select starts at %q", v)
	}
	shots.take("new-user-plan", "")
	must("cancel it", chromedp.Click(chromedp.CSS("dialog[open] .actions .btn:not(.primary)")), chromedp.WaitNotPresent(chromedp.CSS("dialog[open]")))
	if id := eval[string](t, ctx, `document.activeElement.id`); id != "new-user" {
		t.Errorf("focus after cancelling is on %q", id)
	}
	must("create a user on Pro", chromedp.Click(chromedp.ID("new-user")), chromedp.WaitVisible(dlg("f-plan_id")),
		chromedp.SendKeys(dlg("f-name"), "Acme Shop"), chromedp.SetValue(dlg("f-plan_id"), planID),
		chromedp.Click(chromedp.CSS("dialog[open] button[type=submit]")), chromedp.WaitVisible(chromedp.ID("change-plan")))
	wantText(t, ctx, "#user-plan", "Pro")
	shopID := strings.TrimPrefix(eval[string](t, ctx, `location.hash`), "#/users/")
	httpJSON(t, "GET", ts.URL+"/v1/admin/users/"+shopID, partnerKey, "", 200, &created)
	if created.Data.PlanID == nil || *created.Data.PlanID != planID {
		t.Fatalf("the new user's plan_id %v", created.Data.PlanID)
	}
	// One step: created on the plan, never updated onto it.
	var shopActions string
	if err := env.db.QueryRow(`SELECT string_agg(action, ' ' ORDER BY created_at) FROM syncgate.audit_logs WHERE target_id = $1 AND action LIKE 'user_account.%' AND action NOT LIKE '%viewed'`, shopID).Scan(&shopActions); err != nil {
		t.Fatal(err)
	}
	if shopActions != "user_account.created" {
		t.Fatalf("the new user's audited changes %q", shopActions)
	}

	// The user's page: no plan, no quota; put the user on Pro.
	must("the user's page", chromedp.Navigate(ts.URL+"/console#/users/"+userID), chromedp.WaitVisible(chromedp.ID("change-plan")),
		chromedp.WaitVisible(chromedp.ID("refresh-quota")))
	wantText(t, ctx, "#user-plan", "none")
	waitJS("no quota without a plan", `document.querySelector('#quota')?.innerText.includes('No plan')`)
	must("change the plan", chromedp.Click(chromedp.ID("change-plan")), chromedp.WaitVisible(dlg("f-plan_id")),
		chromedp.SetValue(dlg("f-plan_id"), planID), chromedp.Click(chromedp.CSS("dialog[open] button[type=submit]")),
		chromedp.WaitVisible(chromedp.ID("quota-daily")))
	wantText(t, ctx, "#user-plan", "Pro")
	httpJSON(t, "GET", ts.URL+"/v1/admin/users/"+userID, partnerKey, "", 200, &created)
	if created.Data.PlanID == nil || *created.Data.PlanID != planID {
		t.Fatalf("the user's plan_id %v", created.Data.PlanID)
	}
	wantText(t, ctx, "#quota-daily", "0 of 500 today, resets 00:00 UTC")

	// Data requests with the user's key (a refused one counts too), then
	// the gauges show them.
	for i := 0; i < 6; i++ {
		dataCall(t, ts.URL+"/v1/epochs/latest", dataKey, 200, "")
	}
	dataCall(t, ts.URL+"/v1/tx/hash/zz", dataKey, 400, "")
	// The plan leaves mempool out: refused, and counted as usage counts it.
	dataCall(t, ts.URL+"/v1/mempool", dataKey, 403, "Your plan does not include this route (route group mempool)")
	must("refresh the gauges", chromedp.Click(chromedp.ID("refresh-quota")))
	waitJS("the daily gauge counts 8", `document.querySelector('#quota-daily')?.innerText.includes('8 of 500 today')`)
	wantText(t, ctx, "#quota-daily", "492 left")
	wantText(t, ctx, "#quota-monthly", "8 of 20,000 this month, resets ")
	if v := eval[float64](t, ctx, `document.querySelector('#quota-daily meter').value`); v != 8 {
		t.Fatalf("daily meter at %v", v)
	}
	// The gauge and the API's own count agree.
	var q struct {
		Data userQuota `json:"data"`
	}
	httpJSON(t, "GET", ts.URL+"/v1/admin/users/"+userID+"/quota", partnerKey, "", 200, &q)
	if q.Data.Daily == nil || q.Data.Daily.Used != 8 || q.Data.Monthly == nil || q.Data.Monthly.Used != 8 {
		t.Fatalf("quota %+v", q.Data)
	}
	// The periods are the pinned clock's: the gauges count that day.
	if q.Data.Daily.PeriodStart[:10] != "2030-01-15" || q.Data.Daily.ResetsAt[:10] != "2030-01-16" || q.Data.Monthly.ResetsAt[:10] != "2030-02-01" {
		t.Fatalf("quota periods %+v %+v", *q.Data.Daily, *q.Data.Monthly)
	}
	reset := q.Data.Monthly.ResetsAt[:10]
	wantText(t, ctx, "#quota-monthly", "resets "+reset+" 00:00 UTC")
	shots.take("user-quota", "")

	// The users list names the plan.
	must("users list", chromedp.Click(chromedp.CSS(`nav a[href="#/users"]`)), chromedp.WaitVisible(chromedp.CSS(`table[aria-label="Users"]`)))
	waitJS("the plan in the list", `document.querySelector('table[aria-label="Users"] tbody tr')?.innerText.includes('Pro')`)

	// Deleting Pro while the user is on it: the API's 409 in the dialog.
	// Plans counts them: the user created on Pro and the one moved onto it.
	must("Plans again", chromedp.Click(chromedp.CSS(`nav a[href="#/plans"]`)), chromedp.WaitVisible(chromedp.CSS(row)))
	users := `document.querySelector('%s').closest('tr').querySelector('td[data-label="Users"]').textContent`
	if got := eval[string](t, ctx, fmt.Sprintf(users, row)); got != "2" {
		t.Fatalf("Pro counts %q users", got)
	}
	if got := eval[string](t, ctx, fmt.Sprintf(users, `[data-plan="`+spareID+`"]`)); got != "0" {
		t.Fatalf("Spare counts %q users", got)
	}
	must("delete Pro", chromedp.Click(chromedp.CSS(row+` [data-action=delete]`)), chromedp.WaitVisible(chromedp.CSS("dialog[open] button[type=submit]")),
		chromedp.Click(chromedp.CSS("dialog[open] button[type=submit]")), chromedp.WaitVisible(chromedp.CSS("dialog[open] .alert")))
	wantText(t, ctx, "dialog[open] .alert", "Plan cannot be deleted while users are on it")
	shots.take("plan-delete-refused", "")
	must("cancel", chromedp.Click(chromedp.CSS("dialog[open] .actions .btn:not(.primary)")), chromedp.WaitNotPresent(chromedp.CSS("dialog[open]")))
	httpJSON(t, "GET", ts.URL+"/v1/admin/plans/"+planID, partnerKey, "", 200, nil)

	// The spare plan, on no user, goes.
	spare := `[data-plan="` + spareID + `"]`
	must("delete Spare", chromedp.Click(chromedp.CSS(spare+` [data-action=delete]`)), chromedp.WaitVisible(chromedp.CSS("dialog[open] button[type=submit]")),
		chromedp.Click(chromedp.CSS("dialog[open] button[type=submit]")), chromedp.WaitVisible(chromedp.ID("plan-note")))
	waitJS("the deletion noted", `document.querySelector('#plan-note')?.textContent === 'Plan “Spare” deleted.'`)
	if got := rows(); len(got) != 1 || !strings.HasPrefix(got[0], "Pro ") {
		t.Fatalf("plans after deleting Spare %q", got)
	}
	httpJSON(t, "GET", ts.URL+"/v1/admin/plans/"+spareID, partnerKey, "", 404, nil)

	must("sign out", chromedp.Click(chromedp.ID("signout")), chromedp.WaitVisible(chromedp.ID("signin-key")))
	if n := eval[int](t, ctx, `sessionStorage.length`); n != 0 {
		t.Fatal("the admin key outlived sign-out")
	}
	shots.phone(map[string]string{
		"plans":      "#/plans",
		"user-quota": "#/users/" + userID,
	}, partnerKey, ts.URL)

	// Every plan change the console made is audited in the partner's name.
	var actions string
	if err := env.db.QueryRow(`SELECT string_agg(DISTINCT action, ' ' ORDER BY action) FROM syncgate.audit_logs WHERE target_type = 'plan'`).Scan(&actions); err != nil {
		t.Fatal(err)
	}
	if want := "plan.created plan.deleted plan.listed plan.updated plan.viewed"; actions != want {
		t.Fatalf("audited %q\nwant    %q", actions, want)
	}
}
