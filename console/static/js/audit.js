// The audit log: a filterable, paged table.
import { get, query } from './api.js';
import { h, table, pager, fmtTime, alertBox } from './dom.js';

const PAGE = 50;
const ACTIONS = [
  'credential.created', 'credential.updated', 'credential.revoked', 'credential.rolled', 'credential.viewed', 'credential.listed',
  'user_account.created', 'user_account.updated', 'user_account.suspended', 'user_account.reactivated',
  'user_account.viewed', 'user_account.listed', 'admin_key.created', 'admin_key.revoked', 'admin_key.rolled', 'admin_key.listed', 'security_event.viewed',
  'plan.created', 'plan.updated', 'plan.deleted', 'plan.viewed', 'plan.listed',
  'usage.viewed', 'audit_log.viewed',
  'webhook.created', 'webhook.listed', 'webhook.viewed', 'webhook.disabled', 'webhook.deleted', 'webhook.deliveries_viewed',
  'webhook.items_viewed', 'webhook.redelivered', 'webhook.tested', 'webhook.secret_rolled',
];
const filters = { action: '', admin_key_id: '', target_id: '', offset: 0 };

export async function auditView(view, ctx) {
  const err = alertBox();
  const body = h('div');
  const action = h('select', { name: 'action', id: 'audit-action', 'aria-label': 'Action' },
    h('option', { value: '' }, 'All actions'), ACTIONS.map((a) => h('option', { value: a, selected: filters.action === a }, a)));
  const actor = h('input', { name: 'admin_key_id', id: 'audit-actor', placeholder: 'Admin key id', value: filters.admin_key_id, 'aria-label': 'Admin key id' });
  const target = h('input', { name: 'target_id', id: 'audit-target', placeholder: 'Target id', value: filters.target_id, 'aria-label': 'Target id' });
  const form = h('form', { class: 'toolbar' }, action, actor, target,
    h('button', { type: 'submit', class: 'btn' }, 'Filter'),
    h('button', { type: 'button', class: 'btn', onclick: () => { Object.assign(filters, { action: '', admin_key_id: '', target_id: '', offset: 0 }); ctx.rerender(); } }, 'Clear'));
  form.addEventListener('submit', (ev) => {
    ev.preventDefault();
    Object.assign(filters, { action: action.value, admin_key_id: actor.value.trim(), target_id: target.value.trim(), offset: 0 });
    load();
  });
  view.append(h('div', { class: 'head' }, h('h1', {}, 'Audit log')), form, err, body);

  async function load() {
    err.show('');
    let env;
    try {
      env = await get('/v1/admin/audit-logs' + query({ ...filters, limit: PAGE }));
    } catch (e) {
      body.replaceChildren();
      err.show(e.message);
      return;
    }
    if (ctx.stale()) return;
    body.replaceChildren(table([
      { label: 'Time', cell: (e) => fmtTime(e.created_at) },
      { label: 'Action', cell: (e) => h('code', {}, e.action) },
      { label: 'By', cell: (e) => e.admin_entity_name, opt: true },
      { label: 'Target', cell: (e) => e.target_id ? h('button', { type: 'button', class: 'link', title: 'Show only this target', onclick: () => { target.value = e.target_id; form.requestSubmit(); } }, e.target_type + ' ' + e.target_id.slice(0, 8)) : (e.target_type || '—') },
      { label: 'IP', cell: (e) => e.ip_address || '—', opt: true },
      { label: 'Details', cell: (e) => h('code', { class: 'details' }, JSON.stringify(e.details)), opt: true },
    ], env.data, { label: 'Audit log', empty: 'No entries match.' }),
    pager(filters.offset, PAGE, env.pagination.total, (o) => { filters.offset = o; load(); }));
  }
  await load();
}
