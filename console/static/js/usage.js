// Usage: top users, every key's totals, and per key / per user charts.
// The API counts successful (2xx/3xx) and failed (4xx/5xx) requests, so
// the bars stack those two classes.
import { get, getAll, query } from './api.js';
import { h, table, pager, fmtTime, fmtNum, alertBox } from './dom.js';
import { stackedBars, lastDays, lastHours, dailyBuckets, hourlyBuckets } from './chart.js';

const DAYS = 30;
let credOffset = 0;

export async function usageView(view, ctx) {
  const days = lastDays(DAYS);
  const start = days[0];
  const err = alertBox();
  const top = h('div');
  const creds = h('div');
  view.append(h('div', { class: 'head' }, h('h1', {}, 'Usage'), h('span', { class: 'muted' }, `last ${DAYS} days (since ${start}, UTC)`)),
    err, h('h2', {}, 'Top users'), top, h('h2', {}, 'API keys'), creds);

  const [users, rows] = await Promise.allSettled([
    get('/v1/admin/users/usage/summary' + query({ limit: 10, start_date: start })),
    loadCreds(),
  ]);
  if (ctx.stale()) return;
  if (users.status === 'rejected') err.show(users.reason.message);
  else {
    top.replaceChildren(table([
      { label: 'User', cell: (u) => h('a', { href: '#/usage/user/' + u.user_account_id }, u.user_name) },
      { label: 'External id', cell: (u) => u.external_id || '—', opt: true },
      { label: 'Requests', cell: (u) => fmtNum(u.total_requests), num: true },
      { label: 'Successful', cell: (u) => fmtNum(u.successful_requests), num: true, opt: true },
      { label: 'Failed', cell: (u) => fmtNum(u.failed_requests), num: true },
      { label: 'Avg ms', cell: (u) => u.avg_response_time_ms.toFixed(1), num: true, opt: true },
      { label: 'Active keys', cell: (u) => fmtNum(u.credential_count), num: true, opt: true },
    ], users.value.data, { label: 'Top users', empty: 'No active users yet.', onRow: (u) => { location.hash = '#/usage/user/' + u.user_account_id; } }));
  }
  if (rows.status === 'rejected') err.show(rows.reason.message);

  async function loadCreds() {
    const env = await get('/v1/admin/usage' + query({ limit: 20, offset: credOffset, start_date: start }));
    if (ctx.stale()) return;
    creds.replaceChildren(table([
      { label: 'Key', cell: (r) => h('a', { href: '#/usage/credential/' + r.credential_id }, r.credential_name, ' ', h('code', {}, r.api_key_prefix + '…')) },
      { label: 'User', cell: (r) => r.user_account_name, opt: true },
      { label: 'Requests', cell: (r) => fmtNum(r.total_requests), num: true },
      { label: 'Successful', cell: (r) => fmtNum(r.successful_requests), num: true, opt: true },
      { label: 'Failed', cell: (r) => fmtNum(r.failed_requests), num: true },
      { label: 'Last used', cell: (r) => fmtTime(r.last_used_at), opt: true },
    ], env.data, { label: 'Usage by key', empty: 'No API keys yet.', onRow: (r) => { location.hash = '#/usage/credential/' + r.credential_id; } }),
    pager(credOffset, 20, env.pagination.total, (o) => { credOffset = o; loadCreds().catch((e) => err.show(e.message)); }));
  }
}

export async function credentialUsageView(view, ctx, id) {
  const days = lastDays(DAYS);
  const [daily, hourly] = await Promise.all([
    get(`/v1/admin/usage/${id}` + query({ start_date: days[0] })),
    get(`/v1/admin/usage/${id}/hourly`),
  ]);
  if (ctx.stale()) return;
  const sum = daily.data.summary;
  view.append(
    h('p', { class: 'crumbs' }, h('a', { href: '#/usage' }, '‹ Usage'), ' · ', h('a', { href: '#/users/' + sum.user_account_id }, sum.user_account_name)),
    h('div', { class: 'head' }, h('h1', {}, sum.credential_name, ' ', h('code', {}, sum.api_key_prefix + '…')),
      h('button', { type: 'button', class: 'btn', id: 'refresh-usage', onclick: () => ctx.rerender() }, 'Refresh')),
    totals(sum),
    stackedBars(`Requests per day, last ${DAYS} days`, dailyBuckets(days, daily.data.daily), { labelEvery: 5, id: 'chart-daily' }),
    stackedBars('Requests per hour, last 48 hours', hourlyBuckets(lastHours(48), hourly.data.hourly), { labelEvery: 6, id: 'chart-hourly' }),
    h('p', { class: 'muted small' }, 'Counts reach the console within a few seconds (they are written in batches). Times are UTC.'));
}

export async function userUsageView(view, ctx, id) {
  const days = lastDays(DAYS);
  const [rec, all] = await Promise.all([
    get(`/v1/admin/users/${id}/usage` + query({ start_date: days[0] })),
    // Daily counts exist per key: sum this user's keys.
    getAll('/v1/admin/usage', { start_date: days[0] }, 5000),
  ]);
  if (ctx.stale()) return;
  const mine = all.items.filter((r) => r.user_account_id === id);
  const dailies = await Promise.all(mine.map((r) => get(`/v1/admin/usage/${r.credential_id}` + query({ start_date: days[0] }))));
  if (ctx.stale()) return;
  const u = rec.data;
  view.append(
    h('p', { class: 'crumbs' }, h('a', { href: '#/usage' }, '‹ Usage')),
    h('div', { class: 'head' }, h('h1', {}, u.user_name), h('span', { class: 'muted' }, u.external_id || '')),
    totals(u, [['Avg response', u.avg_response_time_ms.toFixed(1) + ' ms'], ['Active keys', fmtNum(u.credential_count)]]),
    stackedBars(`Requests per day, last ${DAYS} days, all keys`, dailyBuckets(days, dailies.flatMap((d) => d.data.daily)), { labelEvery: 5, id: 'chart-user-daily' }),
    h('h2', {}, 'Keys'),
    table([
      { label: 'Key', cell: (r) => h('a', { href: '#/usage/credential/' + r.credential_id }, r.credential_name, ' ', h('code', {}, r.api_key_prefix + '…')) },
      { label: 'Requests', cell: (r) => fmtNum(r.total_requests), num: true },
      { label: 'Failed', cell: (r) => fmtNum(r.failed_requests), num: true },
      { label: 'Last used', cell: (r) => fmtTime(r.last_used_at), opt: true },
    ], mine, { label: 'Keys of this user', empty: 'This user has no keys.' }));
}

function totals(r, extra = []) {
  return h('div', { class: 'stats' },
    [['Requests', fmtNum(r.total_requests)], ['Successful', fmtNum(r.successful_requests)], ['Failed', fmtNum(r.failed_requests)], ...extra]
      .map(([k, v]) => h('div', { class: 'stat' }, h('span', { class: 'muted' }, k), h('strong', {}, v))));
}
