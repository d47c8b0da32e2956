// Bootstrap key only: admin keys and security events.
import { api, get, query } from './api.js';
import { h, table, pager, badge, fmtTime, alertBox } from './dom.js';
import { formDialog, confirmDialog, keyOnce, field } from './dialog.js';

const PERMS = ['manage_users', 'manage_credentials', 'view_usage', 'view_audit_logs'];
let keysOffset = 0;
let eventsOffset = 0;

function keyState(k) {
  if (k.revoked) return 'revoked';
  if (k.expires_at) return new Date(k.expires_at) <= new Date() ? 'expired' : 'expiring';
  return 'active';
}

export async function keysView(view, ctx) {
  const env = await get('/v1/admin/keys' + query({ limit: 20, offset: keysOffset }));
  if (ctx.stale()) return;
  view.append(
    h('div', { class: 'head' }, h('h1', {}, 'Admin keys'),
      h('button', { type: 'button', class: 'btn primary', id: 'new-admin-key', onclick: () => createKey(ctx) }, 'New partner key')),
    table([
      { label: 'Partner', cell: (k) => k.admin_entity_name },
      { label: 'Key', cell: (k) => h('code', {}, k.api_key_prefix + '…') },
      { label: 'Permissions', cell: (k) => k.permissions.join(', ') || '—', opt: true },
      { label: 'Created', cell: (k) => fmtTime(k.created_at), opt: true },
      { label: 'Expires', cell: (k) => fmtTime(k.expires_at), opt: true },
      { label: 'Status', cell: (k) => badge(keyState(k)) },
      { label: '', cell: (k) => k.revoked ? null : h('div', { class: 'row-actions' },
        h('button', { type: 'button', class: 'btn small', onclick: () => rollKey(ctx, k) }, 'Roll'),
        h('button', {
          type: 'button', class: 'btn small danger', onclick: async () => {
            const r = await confirmDialog('Revoke admin key', `Revoke ${k.admin_entity_name}'s key ${k.api_key_prefix}…? If it is the partner's last active key, every API key of that partner stops working too.`, 'Revoke',
              () => api('DELETE', '/v1/admin/keys/' + k.id));
            if (r) { await keyOnceMessage(r.message); ctx.rerender(); }
          },
        }, 'Revoke')) },
    ], env.data, { label: 'Admin keys', empty: 'No admin keys yet.' }),
    pager(keysOffset, 20, env.pagination.total, (o) => { keysOffset = o; ctx.rerender(); }));
}

function keyOnceMessage(msg) {
  return formDialog('Done', [h('p', {}, msg)], 'OK', async () => true);
}

async function createKey(ctx) {
  const env = await formDialog('New partner key', [
    field('Partner name', 'admin_entity_name', { required: true, maxlength: 255 }),
    h('fieldset', { class: 'field' }, h('legend', {}, 'Permissions'),
      PERMS.map((p) => h('label', { class: 'check' }, h('input', { type: 'checkbox', name: 'perm:' + p, checked: true }), ' ' + p))),
  ], 'Create key', (v) => api('POST', '/v1/admin/keys', {
    admin_entity_name: v.admin_entity_name,
    permissions: PERMS.filter((p) => v['perm:' + p] === 'on'),
  }));
  if (!env) return;
  await keyOnce('The new admin key', env.data.key, `For ${env.data.admin_key.admin_entity_name}.`);
  ctx.rerender();
}

async function rollKey(ctx, k) {
  const env = await formDialog('Roll admin key', [
    h('p', {}, `Give ${k.admin_entity_name} a new admin key; the old one (${k.api_key_prefix}…) keeps working for the overlap.`),
    field('Old key keeps working for', 'expires_in_seconds', {
      options: [[0, 'No overlap: stops now'], [3600, '1 hour'], [86400, '24 hours'], [604800, '7 days']], value: 86400,
    }),
  ], 'Roll key', (v) => api('POST', `/v1/admin/keys/${k.id}/roll`, { expires_in_seconds: Number(v.expires_in_seconds) }));
  if (!env) return;
  await keyOnce('The rolled admin key', env.data.key, `The previous key works until ${fmtTime(env.data.previous_admin_key.expires_at || env.data.previous_admin_key.revoked_at)}.`);
  ctx.rerender();
}

export async function securityView(view, ctx) {
  const env = await get('/v1/admin/security-events' + query({ limit: 50, offset: eventsOffset }));
  if (ctx.stale()) return;
  view.append(
    h('div', { class: 'head' }, h('h1', {}, 'Security events'), h('span', { class: 'muted' }, 'refused admin requests (401, 403)')),
    alertBox(),
    table([
      { label: 'Time', cell: (e) => fmtTime(e.created_at) },
      { label: 'Status', cell: (e) => badge(String(e.status), 'failed') },
      { label: 'Request', cell: (e) => h('code', {}, e.method + ' ' + e.path) },
      { label: 'Reason', cell: (e) => e.reason, opt: true },
      { label: 'IP', cell: (e) => e.ip_address || '—', opt: true },
      { label: 'Admin key', cell: (e) => e.admin_key_id ? h('code', {}, e.admin_key_id.slice(0, 8)) : '—', opt: true },
    ], env.data, { label: 'Security events', empty: 'No refused admin requests.' }),
    pager(eventsOffset, 50, env.pagination.total, (o) => { eventsOffset = o; ctx.rerender(); }));
}
