// Users and their credentials.
import { api, get, getAll, query } from './api.js';
import { h, table, pager, badge, fmtTime, fmtNum, alertBox, NETWORKS } from './dom.js';
import { formDialog, confirmDialog, keyOnce, field } from './dialog.js';
import { keyUsage } from './keyuse.js';
import { loadPlans, planDialog, planField, quotaSection } from './plans.js';

const PAGE = 20;
// The list filters by status on the server; the admin API has no text
// search, so a search walks the newest users (up to this many) here.
const SEARCH_MAX = 2000;

const listState = { offset: 0, status: '', q: '' };

export async function usersView(view, ctx) {
  const err = alertBox();
  const search = h('input', { type: 'search', id: 'user-search', placeholder: 'Search name, external id, e-mail', value: listState.q, 'aria-label': 'Search users' });
  const status = h('select', { id: 'user-status', 'aria-label': 'Status' },
    [['', 'All statuses'], ['active', 'Active'], ['suspended', 'Suspended'], ['pending', 'Pending']]
      .map(([v, t]) => h('option', { value: v, selected: listState.status === v }, t)));
  const body = h('div');
  const note = h('p', { class: 'muted small' });
  view.append(
    h('div', { class: 'head' }, h('h1', {}, 'Users'),
      h('button', { type: 'button', class: 'btn primary', id: 'new-user', onclick: (ev) => createUser(ev.currentTarget, err) }, 'New user')),
    h('form', { class: 'toolbar', onsubmit: (ev) => { ev.preventDefault(); listState.q = search.value.trim(); listState.offset = 0; load(); } },
      search, status, h('button', { type: 'submit', class: 'btn' }, 'Search')),
    err, body, note);
  status.addEventListener('change', () => { listState.status = status.value; listState.offset = 0; load(); });

  let planNames = new Map();
  async function load() {
    err.show('');
    note.textContent = '';
    let rows, total;
    try {
      if (listState.q) {
        const q = listState.q.toLowerCase();
        const all = await getAll('/v1/admin/users', { status: listState.status }, SEARCH_MAX);
        const hits = all.items.filter((u) => [u.name, u.external_id, u.email].some((v) => (v || '').toLowerCase().includes(q)));
        total = hits.length;
        rows = hits.slice(listState.offset, listState.offset + PAGE);
        if (all.truncated) note.textContent = `Searched the newest ${fmtNum(SEARCH_MAX)} users only.`;
      } else {
        const env = await get('/v1/admin/users' + query({ limit: PAGE, offset: listState.offset, status: listState.status }));
        rows = env.data;
        total = env.pagination.total;
      }
      if (rows.some((u) => u.plan_id)) planNames = new Map((await loadPlans()).map((p) => [p.id, p.name]));
    } catch (e) {
      err.show(e.message);
      return;
    }
    if (ctx.stale()) return;
    body.replaceChildren(
      table([
        { label: 'Name', cell: (u) => h('a', { href: '#/users/' + u.id }, u.name) },
        { label: 'External id', cell: (u) => u.external_id || '—', opt: true },
        { label: 'E-mail', cell: (u) => u.email || '—', opt: true },
        { label: 'Plan', cell: (u) => (u.plan_id ? planNames.get(u.plan_id) ?? '?' : '—'), opt: true },
        { label: 'Billing plan', cell: (u) => u.billing_plan || '—', opt: true },
        { label: 'Status', cell: (u) => badge(u.status) },
        { label: 'Created', cell: (u) => fmtTime(u.created_at), opt: true },
      ], rows, { label: 'Users', onRow: (u) => { location.hash = '#/users/' + u.id; }, empty: listState.q ? 'No user matches.' : 'No users yet: create the first one.' }),
      pager(listState.offset, PAGE, total, (o) => { listState.offset = o; load(); }));
  }
  await load();
}

function userFields(u = {}) {
  return [
    field('Name', 'name', { value: u.name ?? '', required: true, maxlength: 255 }),
    field('External id', 'external_id', { value: u.external_id ?? '' }, 'Your own reference for this customer.'),
    field('E-mail', 'email', { value: u.email ?? '', type: 'email' }),
    field('Billing plan', 'billing_plan', { value: u.billing_plan ?? '' }),
    field('Metadata (JSON object)', 'metadata', { multiline: true, value: u.metadata ? JSON.stringify(u.metadata) : '' }),
  ];
}

// userBody turns form values into the API body; bad metadata JSON is
// reported before anything is sent.
function userBody(v) {
  const body = { name: v.name, external_id: v.external_id, email: v.email, billing_plan: v.billing_plan };
  if (v.metadata.trim()) {
    try { body.metadata = JSON.parse(v.metadata); } catch { throw new Error('Metadata must be a JSON object, e.g. {"tier": "gold"}.'); }
  }
  return body;
}

// createUser creates a user, on a plan if one is chosen (create-user's
// plan_id: one request). While the plans load the button is aria-busy and
// ignores clicks (not disabled: it keeps focus, so closing the dialog
// returns focus to it); err shows why they could not be read.
async function createUser(btn, err) {
  if (btn.getAttribute('aria-busy') === 'true') return;
  err.show('');
  let plans;
  btn.setAttribute('aria-busy', 'true');
  try {
    plans = await loadPlans();
  } catch (e) {
    err.show(e.message);
    return;
  } finally {
    btn.removeAttribute('aria-busy');
  }
  const env = await formDialog('New user', [
    ...userFields(),
    planField(plans, '', plans.length ? 'Its limit, quotas and route groups hold from the first request. Change it later from the user’s page.' : 'No plans yet: create one on the Plans page.'),
  ], 'Create user', (v) => {
    const body = userBody(v);
    if (v.plan_id) body.plan_id = v.plan_id;
    return api('POST', '/v1/admin/users', body);
  });
  if (env) location.hash = '#/users/' + env.data.id;
}

export async function userView(view, ctx, id) {
  const [env, plans] = await Promise.all([get('/v1/admin/users/' + id), loadPlans()]);
  if (ctx.stale()) return;
  const u = env.data;
  const plan = plans.find((p) => p.id === u.plan_id);
  const err = alertBox();
  const suspended = u.status === 'suspended';
  view.append(
    h('p', { class: 'crumbs' }, h('a', { href: '#/users' }, '‹ Users')),
    h('div', { class: 'head' }, h('h1', {}, u.name, ' ', badge(u.status)),
      h('div', { class: 'btns' },
        h('button', {
          type: 'button', class: 'btn', id: 'edit-user', onclick: async () => {
            const r = await formDialog('Edit user', userFields(u), 'Save', (v) => api('PATCH', '/v1/admin/users/' + id, userBody(v)));
            if (r) ctx.rerender();
          },
        }, 'Edit'),
        suspended
          ? h('button', {
            type: 'button', class: 'btn', id: 'reactivate-user', onclick: async () => {
              const r = await confirmDialog('Reactivate user', `Reactivate ${u.name}? Their keys work again at once.`, 'Reactivate', () => api('POST', `/v1/admin/users/${id}/reactivate`));
              if (r) ctx.rerender();
            },
          }, 'Reactivate')
          : h('button', {
            type: 'button', class: 'btn danger', id: 'suspend-user', onclick: async () => {
              const r = await confirmDialog('Suspend user', `Suspend ${u.name}? All their keys stop working on the next request.`, 'Suspend', () => api('POST', `/v1/admin/users/${id}/suspend`));
              if (r) ctx.rerender();
            },
          }, 'Suspend'))),
    err,
    h('dl', { class: 'card facts' },
      fact('Plan', h('span', { class: 'plan-fact' }, h('span', { id: 'user-plan' }, plan ? plan.name : 'none'), ' ',
        h('button', {
          type: 'button', class: 'btn small', id: 'change-plan', onclick: async () => {
            const r = await planDialog(u, plans);
            if (r) ctx.rerender();
          },
        }, 'Change plan'))),
      fact('External id', u.external_id || '—'), fact('E-mail', u.email || '—'), fact('Billing plan', u.billing_plan || '—'),
      fact('Created', fmtTime(u.created_at)), fact('Updated', fmtTime(u.updated_at)),
      fact('Metadata', Object.keys(u.metadata || {}).length ? JSON.stringify(u.metadata) : '—'), fact('User id', h('code', {}, u.id))));
  view.append(h('p', { class: 'btns' },
    h('a', { href: '#/webhooks/user/' + id, class: 'btn small', id: 'user-webhooks' }, 'Webhooks of this user ›'),
    ctx.can('view_usage') ? h('a', { href: '#/usage/user/' + id, class: 'btn small' }, 'Usage of this user ›') : null));
  const waits = [];
  if (ctx.can('view_usage')) {
    const sec = h('section', { class: 'sub' });
    view.append(sec);
    waits.push(quotaSection(sec, ctx, id));
  }
  if (ctx.can('manage_credentials')) waits.push(credentialsSection(view, ctx, u));
  await Promise.all(waits);
}

const fact = (k, v) => [h('dt', {}, k), h('dd', {}, v)];

function credState(c) {
  if (c.revoked) return 'revoked';
  if (c.expires_at && new Date(c.expires_at) <= new Date()) return 'expired';
  return 'active';
}

async function credentialsSection(view, ctx, u) {
  const sec = h('section', { class: 'sub' });
  view.append(sec);
  // The admin API lists credentials per partner, not per user: walk the
  // list and keep this user's.
  const all = await getAll('/v1/admin/credentials', { includeRevoked: true }, 5000);
  if (ctx.stale()) return;
  const creds = all.items.filter((c) => c.user_account_id === u.id);
  sec.append(
    h('div', { class: 'head' }, h('h2', {}, 'API keys'),
      h('button', { type: 'button', class: 'btn primary', id: 'new-credential', onclick: () => createCredential(ctx, u) }, 'New key')),
    table([
      { label: 'Name', cell: (c) => c.name },
      { label: 'Key', cell: (c) => h('code', {}, c.api_key_prefix + '…') },
      { label: 'Network', cell: (c) => NETWORKS[c.network_id] ?? c.network_id, opt: true },
      { label: 'Limit / min', cell: (c) => fmtNum(c.rate_limit_per_minute), num: true, opt: true },
      { label: 'Last used', cell: (c) => fmtTime(c.last_used_at), opt: true },
      { label: 'Expires', cell: (c) => fmtTime(c.expires_at), opt: true },
      { label: 'Status', cell: (c) => badge(credState(c)) },
      { label: '', cell: (c) => credActions(ctx, c) },
    ], creds, { label: 'API keys', empty: 'No keys yet.' }),
    all.truncated ? h('p', { class: 'muted small' }, 'Only the newest 5000 keys of your account were searched.') : '');
}

function credActions(ctx, c) {
  const live = !c.revoked;
  return h('div', { class: 'row-actions', 'data-credential': c.id },
    ctx.can('view_usage') ? h('a', { class: 'btn small', href: '#/usage/credential/' + c.id }, 'Usage') : null,
    live ? h('button', { type: 'button', class: 'btn small', 'data-action': 'edit', onclick: () => editCredential(ctx, c) }, 'Edit') : null,
    live ? h('button', { type: 'button', class: 'btn small', 'data-action': 'roll', onclick: () => rollCredential(ctx, c) }, 'Roll') : null,
    live ? h('button', {
      type: 'button', class: 'btn small danger', 'data-action': 'revoke', onclick: async () => {
        const r = await confirmDialog('Revoke key', `Revoke “${c.name}” (${c.api_key_prefix}…)? It stops working on the next request, everywhere. This cannot be undone.`, 'Revoke key',
          () => api('DELETE', '/v1/admin/credentials/' + c.id));
        if (r) ctx.rerender();
      },
    }, 'Revoke') : null);
}

async function createCredential(ctx, u) {
  const env = await formDialog('New API key for ' + u.name, [
    field('Name', 'name', { value: 'default', required: true, maxlength: 255 }),
    field('Network', 'network_id', { options: NETWORKS.map((n, i) => [i, n]), value: 0 }),
    field('Rate limit (requests per minute)', 'rate_limit_per_minute', { type: 'number', min: 1, max: 10000, value: '60' }, 'Fixed for the key’s life: the admin API cannot change it later.'),
    field('Description', 'description', {}),
    field('Expires (optional, UTC)', 'expires_at', { type: 'datetime-local' }),
  ], 'Create key', (v) => {
    const body = { name: v.name, user_account_id: u.id, network_id: Number(v.network_id) };
    if (v.rate_limit_per_minute !== '') body.rate_limit_per_minute = Number(v.rate_limit_per_minute);
    if (v.description) body.description = v.description;
    if (v.expires_at) body.expires_at = v.expires_at + ':00Z';
    return api('POST', '/v1/admin/credentials', body);
  });
  if (!env) return;
  await keyOnce('Your new API key', env.data.api_key, `${env.data.credential.name}, ${NETWORKS[env.data.credential.network_id]}, ${env.data.credential.rate_limit_per_minute} requests per minute.`, { usage: keyUsage(env.data.api_key, NETWORKS[env.data.credential.network_id]) });
  ctx.rerender();
}

async function editCredential(ctx, c) {
  const r = await formDialog('Edit key', [
    field('Name', 'name', { value: c.name, required: true, maxlength: 255 }),
    field('Description', 'description', { value: c.description ?? '' }, 'Empty clears it.'),
    field('Rate limit (requests per minute)', 'rate_limit', { value: String(c.rate_limit_per_minute), disabled: true },
      'The admin API cannot change a key’s limit (spec: only name and description). Create a new key with the limit wanted.'),
  ], 'Save', (v) => api('PATCH', '/v1/admin/credentials/' + c.id, { name: v.name, description: v.description === '' ? null : v.description }));
  if (r) ctx.rerender();
}

async function rollCredential(ctx, c) {
  const env = await formDialog('Roll key', [
    h('p', {}, `Roll “${c.name}” (${c.api_key_prefix}…): a new key with the same user, network, limit and usage history. The old key keeps working for the overlap you choose, then stops.`),
    field('Old key keeps working for', 'expires_in_seconds', {
      options: [[0, 'No overlap: stops now'], [600, '10 minutes'], [3600, '1 hour'], [86400, '24 hours'], [604800, '7 days']], value: 3600,
    }),
  ], 'Roll key', (v) => api('POST', `/v1/admin/credentials/${c.id}/roll`, { expires_in_seconds: Number(v.expires_in_seconds) }));
  if (!env) return;
  await keyOnce('Your rolled API key', env.data.api_key, `The previous key works until ${fmtTime(env.data.previous_key_expires_at)}.`, { usage: keyUsage(env.data.api_key, NETWORKS[env.data.credential.network_id]) });
  ctx.rerender();
}
