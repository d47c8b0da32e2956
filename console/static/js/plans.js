// Plans: the partner's plans (limits, quotas, route groups, per-user
// maxima, how many users are on each), created, edited and deleted here;
// users are put on a plan in the New user dialog or from their own page
// (users.js), where their quota gauges show too.
import { api, getAll } from './api.js';
import { h, table, fmtNum, alertBox } from './dom.js';
import { formDialog, confirmDialog, field } from './dialog.js';

export const ROUTE_GROUPS = ['chain', 'history', 'submit', 'mempool', 'webhooks'];
const GROUP_HINTS = {
  chain: 'UTxOs, balances, transactions, epochs, assets, pools, accounts',
  history: 'address and account history',
  submit: 'transaction submission and status',
  mempool: 'mempool reads',
  webhooks: 'webhooks and chain events',
};
// Settings that may be empty (none); PATCH sends null to clear them.
const OPTIONAL = ['burst', 'daily_quota', 'monthly_quota', 'max_credentials_per_user', 'max_webhooks_per_user'];

// A message for the next render (what the last action did).
let flash = '';

// loadPlans returns every plan of the partner (a partner has few).
export async function loadPlans() {
  return (await getAll('/v1/admin/plans', {}, 1000)).items;
}

const orNone = (v) => (v === null || v === undefined ? '—' : fmtNum(v));

export async function plansView(view, ctx) {
  const plans = await loadPlans();
  if (ctx.stale()) return;
  const note = h('p', { class: 'note', role: 'status', id: 'plan-note', hidden: !flash }, flash);
  flash = '';
  const after = (msg) => { flash = msg; ctx.rerender(); };
  view.append(
    h('div', { class: 'head' }, h('h1', {}, 'Plans'),
      h('button', { type: 'button', class: 'btn primary', id: 'new-plan', onclick: () => createPlan(after) }, 'New plan')),
    h('p', { class: 'muted small' }, 'A plan sets its users’ per-minute limit, daily and monthly request quotas (UTC days and months), the route groups they may call and how many keys and webhooks each may hold. Choose a new user’s plan when creating it, or change a user’s plan from the user’s page. Users counts every user on the plan, suspended ones included.'),
    note,
    table([
      { label: 'Name', cell: (p) => h('strong', {}, p.name) },
      { label: 'Users', cell: (p) => fmtNum(p.users), num: true, opt: true },
      { label: 'Limit / min', cell: (p) => fmtNum(p.rate_limit_per_minute), num: true, opt: true },
      { label: 'Burst', cell: (p) => orNone(p.burst), num: true, opt: true },
      { label: 'Daily quota', cell: (p) => orNone(p.daily_quota), num: true },
      { label: 'Monthly quota', cell: (p) => orNone(p.monthly_quota), num: true },
      { label: 'Route groups', cell: (p) => p.route_groups.join(', '), opt: true },
      { label: 'Keys / user', cell: (p) => orNone(p.max_credentials_per_user), num: true, opt: true },
      { label: 'Webhooks / user', cell: (p) => orNone(p.max_webhooks_per_user), num: true, opt: true },
      {
        label: '', cell: (p) => h('div', { class: 'row-actions', 'data-plan': p.id },
          h('button', { type: 'button', class: 'btn small', 'data-action': 'edit', onclick: () => editPlan(p, after) }, 'Edit'),
          h('button', {
            type: 'button', class: 'btn small danger', 'data-action': 'delete', onclick: async () => {
              const r = await confirmDialog('Delete plan', `Delete the plan “${p.name}”? A plan that users are on cannot be deleted: move them to another plan first.`, 'Delete plan',
                () => api('DELETE', '/v1/admin/plans/' + p.id));
              if (r) after(`Plan “${p.name}” deleted.`);
            },
          }, 'Delete')),
      },
    ], plans, { label: 'Plans', empty: 'No plans yet: create the first one.' }));
}

function planFields(p = {}) {
  const num = (label, name, attrs, hint) => field(label, name, { type: 'number', step: 1, value: p[name] ?? '', ...attrs }, hint);
  const groups = p.route_groups ?? ROUTE_GROUPS;
  return [
    field('Name', 'name', { value: p.name ?? '', required: true, maxlength: 255 }),
    num('Rate limit (requests per minute)', 'rate_limit_per_minute', { min: 1, max: 10000, required: true, value: p.rate_limit_per_minute ?? '60' },
      'For keys created without a limit of their own.'),
    num('Burst', 'burst', { min: 1, max: 10000 }, 'Requests allowed at once; empty: the per-minute limit.'),
    num('Daily quota', 'daily_quota', { min: 1 }, 'Requests per UTC day, all the user’s keys together; empty: none.'),
    num('Monthly quota', 'monthly_quota', { min: 1 }, 'Requests per UTC calendar month; empty: none.'),
    h('fieldset', { class: 'field' }, h('legend', {}, 'Route groups'),
      ROUTE_GROUPS.map((g) => h('label', { class: 'check' },
        h('input', { type: 'checkbox', name: 'group:' + g, id: 'f-group-' + g, checked: groups.includes(g) }), ' ' + g,
        h('span', { class: 'muted small' }, ' — ' + GROUP_HINTS[g])))),
    num('Keys per user', 'max_credentials_per_user', { min: 1 }, 'Active API keys a user may hold; empty: no limit.'),
    num('Webhooks per user', 'max_webhooks_per_user', { min: 0 }, 'Empty: no limit.'),
  ];
}

// planBody turns form values into the API body. Empty optional settings
// are left out on create and cleared (null) on edit; the API checks the
// ranges and its message shows in the dialog.
function planBody(v, editing) {
  const body = { name: v.name.trim(), route_groups: ROUTE_GROUPS.filter((g) => v['group:' + g] === 'on') };
  const n = (s) => (/^-?\d+$/.test(s.trim()) ? Number(s) : s.trim());
  if (v.rate_limit_per_minute.trim() !== '') body.rate_limit_per_minute = n(v.rate_limit_per_minute);
  for (const k of OPTIONAL) {
    if (v[k].trim() !== '') body[k] = n(v[k]);
    else if (editing) body[k] = null;
  }
  return body;
}

async function createPlan(after) {
  const env = await formDialog('New plan', planFields(), 'Create plan', (v) => api('POST', '/v1/admin/plans', planBody(v, false)));
  if (env) after(`Plan “${env.data.name}” created.`);
}

async function editPlan(p, after) {
  const env = await formDialog('Edit plan ' + p.name, planFields(p), 'Save', (v) => api('PATCH', '/v1/admin/plans/' + p.id, planBody(v, true)));
  if (env) after(`Plan “${env.data.name}” saved. Its users’ keys follow it from their next request.`);
}

// planField is the labelled plan select of the user dialogs: "No plan"
// (the API's default) and each plan with its limit and quotas.
export function planField(plans, value, hint) {
  const quotas = (p) => [p.daily_quota && fmtNum(p.daily_quota) + ' a day', p.monthly_quota && fmtNum(p.monthly_quota) + ' a month'].filter(Boolean).join(', ') || 'no quota';
  return field('Plan', 'plan_id', { options: [['', 'No plan'], ...plans.map((p) => [p.id, `${p.name} (${fmtNum(p.rate_limit_per_minute)}/min, ${quotas(p)})`])], value: value ?? '' }, hint);
}

// planDialog puts a user on a plan (or takes them off); resolves to the
// updated user, or null if cancelled.
export async function planDialog(u, plans) {
  if (plans.length === 0 && !u.plan_id) {
    return formDialog('Plan', [h('p', {}, 'There are no plans yet. Create one on the Plans page first.')], 'OK', async () => null);
  }
  const env = await formDialog('Plan of ' + u.name, [
    planField(plans, u.plan_id),
    h('p', { class: 'muted small' }, 'The change holds from the user’s next request, on every key.'),
  ], 'Save', (v) => api('PATCH', '/v1/admin/users/' + u.id, { plan_id: v.plan_id || null }));
  return env;
}

// quotaSection shows how much of its daily and monthly quota a user has
// used: the counters the API refuses requests with (402) once spent.
export async function quotaSection(sec, ctx, userId) {
  const err = alertBox();
  const body = h('div', { id: 'quota' });
  sec.append(h('div', { class: 'head' }, h('h2', {}, 'Quota'),
    h('button', { type: 'button', class: 'btn small', id: 'refresh-quota', onclick: () => load() }, 'Refresh')), err, body);
  async function load() {
    err.show('');
    let q;
    try {
      q = (await api('GET', `/v1/admin/users/${userId}/quota`)).data;
    } catch (e) {
      err.show(e.message);
      return;
    }
    if (ctx.stale()) return;
    if (!q.plan) {
      body.replaceChildren(h('p', { class: 'muted empty' }, 'No plan: the user has no daily or monthly quota.'));
      return;
    }
    const gauges = [gauge('daily', q.daily), gauge('monthly', q.monthly)].filter(Boolean);
    body.replaceChildren(gauges.length ? h('div', { class: 'gauges' }, gauges)
      : h('p', { class: 'muted empty' }, `The plan ${q.plan.name} has no daily or monthly quota.`));
  }
  await load();
}

function gauge(kind, p) {
  if (!p) return null;
  const daily = kind === 'daily';
  const spent = p.used >= p.quota;
  const resets = daily ? p.resets_at.slice(11, 16) + ' UTC' : p.resets_at.slice(0, 10) + ' 00:00 UTC';
  return h('div', { class: 'gauge' + (spent ? ' spent' : ''), id: 'quota-' + kind },
    h('div', { class: 'gauge-head' }, h('strong', {}, daily ? 'Today' : 'This month'),
      h('span', { class: 'muted small' }, fmtNum(p.remaining) + ' left')),
    h('meter', { min: 0, max: p.quota, low: Math.ceil(p.quota * 0.8), high: p.quota - 0.5, optimum: 0, value: Math.min(p.used, p.quota), 'aria-label': daily ? 'Daily quota used' : 'Monthly quota used' }),
    h('p', { class: 'gauge-text' }, `${fmtNum(p.used)} of ${fmtNum(p.quota)} ${daily ? 'today' : 'this month'}, resets ${resets}`),
    spent ? h('p', { class: 'warn small' }, 'Spent: requests are refused (402) until it resets.') : null);
}
