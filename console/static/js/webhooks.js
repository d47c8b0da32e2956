// Users' webhooks: pick a user, list their webhooks (every network),
// create one (webhookform.js), open one: deliveries with the headers each
// last attempt sent and redelivery, a test event, secret roll, disable,
// delete, and the watch set.
import { api, get, getAll, query } from './api.js';
import { h, table, pager, badge, fmtTime, fmtNum, alertBox, busy } from './dom.js';
import { formDialog, confirmDialog, keyOnce, field } from './dialog.js';
import { createWebhook } from './webhookform.js';

const PAGE = 20;
const SEARCH_MAX = 2000;
const DELIVERIES = 20;
const ITEMS = 50;

const pickState = { offset: 0, q: '' };
const deliveryOffsets = new Map(); // webhook id -> deliveries page shown
// A message for the next render of a webhook (what the last action did).
let flash = '';

const hookPath = (userId, hookId) => `/v1/admin/users/${userId}/webhooks` + (hookId ? '/' + hookId : '');
const hookHref = (userId, hookId) => `#/webhooks/user/${userId}` + (hookId ? '/' + hookId : '');
const pushes = (w) => w.url !== null && w.status === 'active';

function endpoint(w) {
  return w.url === null ? h('span', { class: 'muted' }, 'pull only') : h('span', { class: 'url' }, w.url);
}

// trouble is why a webhook is not delivering, if it is not.
function trouble(w) {
  if (w.status === 'disabled') return 'Disabled' + (w.disabled_at ? ' ' + fmtTime(w.disabled_at) : '') + (w.disabled_reason ? ': ' + w.disabled_reason : '');
  if (w.failing_since) return 'Failing since ' + fmtTime(w.failing_since);
  return null;
}

// webhooksView: choose whose webhooks to see.
export async function webhooksView(view, ctx) {
  const err = alertBox();
  const search = h('input', { type: 'search', id: 'hook-user-search', placeholder: 'Search name, external id, e-mail', value: pickState.q, 'aria-label': 'Search users' });
  const body = h('div');
  const note = h('p', { class: 'muted small' });
  view.append(
    h('div', { class: 'head' }, h('h1', {}, 'Webhooks'), h('span', { class: 'muted' }, 'choose a user to see their webhooks')),
    h('form', { class: 'toolbar', onsubmit: (ev) => { ev.preventDefault(); pickState.q = search.value.trim(); pickState.offset = 0; load(); } },
      search, h('button', { type: 'submit', class: 'btn' }, 'Search')),
    err, body, note);

  async function load() {
    err.show('');
    note.textContent = '';
    let rows, total;
    try {
      if (pickState.q) {
        const q = pickState.q.toLowerCase();
        const all = await getAll('/v1/admin/users', {}, SEARCH_MAX);
        const hits = all.items.filter((u) => [u.name, u.external_id, u.email].some((v) => (v || '').toLowerCase().includes(q)));
        total = hits.length;
        rows = hits.slice(pickState.offset, pickState.offset + PAGE);
        if (all.truncated) note.textContent = `Searched the newest ${fmtNum(SEARCH_MAX)} users only.`;
      } else {
        const env = await get('/v1/admin/users' + query({ limit: PAGE, offset: pickState.offset }));
        rows = env.data;
        total = env.pagination.total;
      }
    } catch (e) {
      err.show(e.message);
      return;
    }
    if (ctx.stale()) return;
    body.replaceChildren(
      table([
        { label: 'User', cell: (u) => h('a', { href: hookHref(u.id) }, u.name) },
        { label: 'External id', cell: (u) => u.external_id || '—', opt: true },
        { label: 'E-mail', cell: (u) => u.email || '—', opt: true },
        { label: 'Status', cell: (u) => badge(u.status) },
      ], rows, { label: 'Choose a user', onRow: (u) => { location.hash = hookHref(u.id); }, empty: pickState.q ? 'No user matches.' : 'No users yet.' }),
      pager(pickState.offset, PAGE, total, (o) => { pickState.offset = o; load(); }));
  }
  await load();
}

// userWebhooksView: one user's webhooks on every network.
export async function userWebhooksView(view, ctx, userId) {
  const [u, hooks] = await Promise.all([get('/v1/admin/users/' + userId), get(hookPath(userId))]);
  if (ctx.stale()) return;
  view.append(
    h('p', { class: 'crumbs' }, h('a', { href: '#/webhooks' }, '‹ Webhooks'), ' · ', h('a', { href: '#/users/' + userId }, u.data.name)),
    h('div', { class: 'head' }, h('h1', {}, 'Webhooks of ', u.data.name),
      h('button', {
        type: 'button', class: 'btn primary', id: 'new-webhook', onclick: async () => {
          // The network of the user's newest webhook first: most users have one.
          const w = await createWebhook(userId, hooks.data.at(-1)?.network ?? 'mainnet');
          if (!w) return;
          flash = 'Webhook created.';
          location.hash = hookHref(userId, w.id);
        },
      }, 'New webhook')),
    h('p', { class: 'muted small' }, 'Created here or by the user with their API key (POST /v1/webhooks).'),
    table([
      { label: 'Endpoint', cell: (w) => h('a', { href: hookHref(userId, w.id), 'data-webhook': w.id }, endpoint(w)) },
      { label: 'Network', cell: (w) => w.network, opt: true },
      { label: 'Depth', cell: (w) => fmtNum(w.depth), num: true, opt: true },
      { label: 'Status', cell: (w) => badge(w.status) },
      { label: 'Events', cell: (w) => w.event_types.join(', '), opt: true },
      { label: 'Watch set', cell: (w) => h('span', { class: 'items' }, fmtNum(w.items)), num: true },
      { label: 'Last seq', cell: (w) => fmtNum(w.last_seq), num: true, opt: true },
      { label: 'Problem', cell: (w) => trouble(w) ?? '—', opt: true },
    ], hooks.data, { label: 'Webhooks', onRow: (w) => { location.hash = hookHref(userId, w.id); }, empty: 'This user has no webhooks.' }));
}

const fact = (k, v) => [h('dt', {}, k), h('dd', {}, v)];

// webhookView: one webhook, its deliveries and watch set.
export async function webhookView(view, ctx, userId, hookId) {
  const [u, env] = await Promise.all([get('/v1/admin/users/' + userId), get(hookPath(userId, hookId))]);
  if (ctx.stale()) return;
  const w = env.data;
  const base = hookPath(userId, hookId);
  const err = alertBox();
  const done = h('p', { class: 'note', role: 'status', id: 'hook-note', hidden: !flash }, flash);
  flash = '';
  const after = (msg) => { flash = msg; ctx.rerender(); };

  const buttons = [
    h('button', {
      type: 'button', class: 'btn', id: 'hook-test', onclick: (ev) => busy(ev.currentTarget, async () => {
        err.show('');
        try {
          const r = (await api('POST', base + '/test')).data;
          deliveryOffsets.set(hookId, 0);
          after(`Test event #${r.seq} decided` + (r.pushed ? '; its delivery is listed below.' : ': the webhook does not push, it is in the feed only.'));
        } catch (e) { err.show(e.message); }
      }),
    }, 'Send test event'),
    h('button', { type: 'button', class: 'btn', id: 'hook-roll', onclick: () => rollSecret(base, after) }, 'Roll secret'),
    w.status === 'active' ? h('button', {
      type: 'button', class: 'btn danger', id: 'hook-disable', onclick: async () => {
        const r = await formDialog('Disable webhook', [
          h('p', {}, 'Nothing more is pushed or decided for it; its receiver reads a webhook.disabled event in the feed. The user can re-enable it with their API key.'),
          field('Reason (optional)', 'reason', { maxlength: 255, placeholder: 'Disabled by the partner' }),
        ], 'Disable', (v) => api('POST', base + '/disable', v.reason.trim() ? { reason: v.reason.trim() } : undefined));
        if (r) after('Webhook disabled.');
      },
    }, 'Disable') : null,
    h('button', {
      type: 'button', class: 'btn danger', id: 'hook-delete', onclick: async () => {
        const r = await confirmDialog('Delete webhook', `Delete the webhook ${w.url ?? '(pull only)'} of ${u.data.name}? Its feed and watch set go with it, and nothing more is pushed. This cannot be undone.`, 'Delete webhook',
          () => api('DELETE', base));
        if (r) location.hash = hookHref(userId);
      },
    }, 'Delete'),
  ];

  const problem = trouble(w);
  view.append(
    h('p', { class: 'crumbs' }, h('a', { href: '#/webhooks' }, '‹ Webhooks'), ' · ', h('a', { href: hookHref(userId) }, u.data.name)),
    h('div', { class: 'head' }, h('h1', { class: 'hook-title' }, endpoint(w), ' ', badge(w.status)), h('div', { class: 'btns' }, buttons)),
    done, err,
    problem ? h('p', { class: 'warn', id: 'hook-problem' }, problem) : '',
    h('dl', { class: 'card facts' },
      fact('Endpoint', w.url ?? 'pull only: nothing is pushed, the receiver reads the feed'),
      fact('Network', w.network), fact('Depth', `${fmtNum(w.depth)} confirmation${w.depth === 1 ? '' : 's'}`),
      fact('Format', w.format === 'blockfrost' ? 'Blockfrost (Blockfrost-Signature)' : 'standard (Standard Webhooks)'),
      fact('Events', w.event_types.join(', ')), fact('Watch set', h('span', { id: 'hook-items' }, `${fmtNum(w.items)} item${w.items === 1 ? '' : 's'}`)),
      fact('Last seq', fmtNum(w.last_seq)), fact('Description', w.description || '—'),
      fact('Created', fmtTime(w.created_at)), fact('Updated', fmtTime(w.updated_at)),
      w.secret_rolling_until ? fact('Previous secret signs until', fmtTime(w.secret_rolling_until)) : null,
      fact('Webhook id', h('code', {}, w.id))));

  const deliveries = h('section', { class: 'sub' });
  const items = h('section', { class: 'sub' });
  view.append(deliveries, items);
  await Promise.all([deliveriesSection(deliveries, ctx, w, base, err, after), itemsSection(items, ctx, w, base)]);
}

async function rollSecret(base, after) {
  const env = await formDialog('Roll signing secret', [
    h('p', {}, 'The webhook gets a new signing secret. The previous one keeps signing too (a second signature) for the overlap you choose, so the receiver can switch without missing an event.'),
    field('Previous secret keeps signing for', 'overlap_seconds', {
      options: [[0, 'No overlap: stops now'], [600, '10 minutes'], [3600, '1 hour'], [86400, '24 hours']], value: 3600,
    }),
  ], 'Roll secret', (v) => api('POST', base + '/secret/roll', { overlap_seconds: Number(v.overlap_seconds) }));
  if (!env) return;
  const until = env.data.secret_rolling_until;
  await keyOnce('The new signing secret', env.data.secret,
    until ? `The previous secret also signs until ${fmtTime(until)}.` : 'The previous secret no longer signs.', { what: 'secret' });
  after('Secret rolled.');
}

// sentHeaders shows the signature headers the last attempt sent (what
// the receiver was asked to verify).
function sentHeaders(d) {
  const hs = d.last_signature_headers;
  if (!hs || hs.length === 0) return '—';
  return h('div', { class: 'sent-headers', 'data-sent-headers': '' }, hs.map((x) =>
    h('code', {}, `${x.name}: ${x.value}`)));
}

function deliveryTime(d) {
  return fmtTime(d.last_attempt_at || d.created_at);
}

async function deliveriesSection(sec, ctx, w, base, err, after) {
  const offset = deliveryOffsets.get(w.id) ?? 0;
  const env = await get(base + '/deliveries' + query({ limit: DELIVERIES, offset }));
  if (ctx.stale()) return;
  const canPush = pushes(w);
  sec.append(
    h('div', { class: 'head' }, h('h2', {}, 'Deliveries'),
      h('span', { class: 'muted small' }, w.url === null ? 'pull only: nothing is pushed' : canPush ? 'newest first' : 'disabled: nothing is pushed until the user re-enables it')),
    table([
      { label: 'Event', cell: (d) => [h('strong', {}, '#' + d.event_seq), ' ', h('span', { class: 'muted' }, d.event_type)] },
      { label: 'Status', cell: (d) => badge(d.status) },
      { label: 'Attempts', cell: (d) => fmtNum(d.attempts), num: true },
      { label: 'Last code', cell: (d) => d.last_code ?? '—', num: true, opt: true },
      { label: 'Latency', cell: (d) => d.last_latency_ms === null ? '—' : fmtNum(d.last_latency_ms) + ' ms', num: true, opt: true },
      { label: 'Error', cell: (d) => d.last_error ? h('code', { class: 'details', title: d.last_error }, d.last_error) : '—', opt: true },
      { label: 'Sent headers', cell: sentHeaders, opt: true },
      { label: 'Time', cell: deliveryTime, opt: true },
      {
        label: '', cell: (d) => h('div', { class: 'row-actions', 'data-delivery': d.event_id },
          h('button', {
            type: 'button', class: 'btn small', 'data-action': 'redeliver', disabled: !canPush,
            title: canPush ? undefined : 'The webhook does not push',
            onclick: (ev) => busy(ev.currentTarget, async () => {
              err.show('');
              try {
                await api('POST', `${base}/events/${d.event_id}/redeliver`);
                after(`Event #${d.event_seq} scheduled for delivery again.`);
              } catch (e) { err.show(e.message); }
            }),
          }, 'Redeliver')),
      },
    ], env.data, { label: 'Deliveries', empty: w.url === null ? 'No deliveries: the webhook is pull only.' : 'No deliveries yet. Send a test event to try the endpoint.' }),
    env.pagination.total > DELIVERIES
      ? pager(offset, DELIVERIES, env.pagination.total, (o) => { deliveryOffsets.set(w.id, o); ctx.rerender(); })
      : '');
}

async function itemsSection(sec, ctx, w, base) {
  const rows = h('tbody');
  const more = h('button', { type: 'button', class: 'btn small', id: 'items-more', hidden: true }, 'Show more');
  let cursor = '';
  async function page() {
    const env = await get(base + '/items' + query({ limit: ITEMS, cursor }));
    if (ctx.stale()) return;
    rows.append(...env.data.items.map((it) => h('tr', {}, h('td', { 'data-label': 'Kind' }, it.kind), h('td', { 'data-label': 'Value' }, h('code', { class: 'value' }, it.value)))));
    cursor = env.data.next_cursor ?? '';
    more.hidden = !cursor;
  }
  more.addEventListener('click', () => busy(more, page));
  sec.append(
    h('div', { class: 'head' }, h('h2', {}, 'Watch set'), h('span', { class: 'muted small' }, `${fmtNum(w.items)} item${w.items === 1 ? '' : 's'}; the user changes it with their API key`)),
    w.items === 0
      ? h('p', { class: 'muted empty' }, 'The watch set is empty: no chain event can match.')
      : h('div', { class: 'table-wrap' }, h('table', { 'aria-label': 'Watch set' },
        h('thead', {}, h('tr', {}, h('th', {}, 'Kind'), h('th', {}, 'Value'))), rows)),
    h('div', { class: 'pager' }, more));
  if (w.items > 0) await page();
}
