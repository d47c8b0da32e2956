// The New webhook dialog of a user's webhooks page: every field the
// creation takes (POST /v1/admin/users/:id/webhooks), the signing secret
// shown once after it.
import { api } from './api.js';
import { h } from './dom.js';
import { formDialog, keyOnce, field } from './dialog.js';

// What the API accepts (package events: SubscribableTypes, Formats, Kinds);
// handlers/console_lists_test.go fails when these differ from the server's.
export const EVENT_TYPES = [
  'tx.confirmed', 'tx.rolled_back', 'block.added', 'block.rolled_back',
  'epoch.started', 'epoch.rolled_back', 'delegation.confirmed', 'delegation.rolled_back',
];
export const FORMATS = ['standard', 'blockfrost'];
export const ITEM_KINDS = ['address', 'stake_address', 'payment_credential', 'policy', 'asset', 'tx', 'pool', 'drep'];
export const HOOK_NETWORKS = ['mainnet', 'preview', 'preprod'];
// The API's defaults when a creation names no event types.
const DEFAULT_TYPES = ['tx.confirmed', 'tx.rolled_back'];

const FORMAT_LABELS = {
  standard: 'Standard (syncgate body, Standard Webhooks signature)',
  blockfrost: 'Blockfrost (Blockfrost envelope, Blockfrost-Signature)',
};
const TYPE_HINTS = {
  'tx.confirmed': 'a transaction touching the watch set',
  'block.added': 'every block (only the watched pools’ blocks when pools are watched)',
  'epoch.started': 'the first block of each epoch',
  'delegation.confirmed': 'stake certificates of watched stake addresses, pools or DReps',
};
const KIND_LABELS = {
  address: 'Address', stake_address: 'Stake address', payment_credential: 'Payment credential', policy: 'Policy id',
  asset: 'Asset', tx: 'Transaction', pool: 'Pool', drep: 'DRep',
};
const KIND_HINTS = {
  address: 'addr1… or Byron base58', stake_address: 'stake1…', payment_credential: '56 hex, addr_vkh1… or script1…',
  policy: '56 hex', asset: 'policy id + name hex, or policy.name', tx: '64 hex', pool: 'pool1… or 56 hex',
  drep: 'drep1…, drep_script1…, drep_always_abstain',
};

// itemRows is the watch set editor: kind and value rows, added and
// removed here; values() reads the filled ones with the row each came from.
function itemRows() {
  const list = h('div', { class: 'item-rows', id: 'f-items' });
  let next = 0;
  function add() {
    const n = next++;
    const kind = h('select', { name: 'item-kind-' + n, 'aria-label': `Item ${n + 1} kind`, 'data-item-kind': '' },
      ITEM_KINDS.map((k) => h('option', { value: k }, KIND_LABELS[k])));
    const value = h('input', { type: 'text', name: 'item-value-' + n, 'aria-label': `Item ${n + 1} value`, spellcheck: 'false', 'data-item-value': '', placeholder: KIND_HINTS.address });
    kind.addEventListener('change', () => { value.placeholder = KIND_HINTS[kind.value]; });
    const row = h('div', { class: 'item-row' }, kind, value,
      h('button', { type: 'button', class: 'btn small', 'aria-label': `Remove item ${n + 1}`, onclick: () => { row.remove(); } }, '✕'));
    list.append(row);
    return row;
  }
  add();
  const el = h('fieldset', { class: 'field' }, h('legend', {}, 'Watch set (optional)'),
    h('small', { class: 'muted' }, 'What the events are about: addresses, stake addresses, payment credentials, policies, assets, transactions, pools and DReps. Empty rows are left out.'),
    list, h('div', {}, h('button', { type: 'button', class: 'btn small', id: 'add-item', onclick: () => add().querySelector('input').focus() }, 'Add item')));
  el.values = () => [...list.querySelectorAll('.item-row')]
    .map((row) => ({ row, kind: row.querySelector('select').value, value: row.querySelector('input').value.trim() }))
    .filter((it) => it.value !== '');
  return el;
}

// createWebhook asks for a new webhook of user userId and creates it;
// the secret is shown once, then it resolves to the webhook (null if
// cancelled). network is the one chosen first.
export async function createWebhook(userId, network) {
  const items = itemRows();
  const env = await formDialog('New webhook', [
    field('Network', 'network', { options: HOOK_NETWORKS.map((n) => [n, n[0].toUpperCase() + n.slice(1)]), value: network },
      'The watch set’s addresses and stake addresses must be of this network.'),
    field('Endpoint URL (optional)', 'url', { type: 'url', placeholder: 'https://example.com/hook', maxlength: 2048 },
      'Where events are pushed. Empty: pull only, the receiver reads the feed.'),
    field('Description', 'description', { maxlength: 255 }),
    field('Confirmations (depth)', 'depth', { type: 'number', min: 0, max: 2160, step: 1, value: '0' },
      'Blocks on top before an event is decided: 0 to 2160.'),
    field('Format', 'format', { options: FORMATS.map((f) => [f, FORMAT_LABELS[f]]), value: 'standard' }),
    h('fieldset', { class: 'field', id: 'f-event-types' }, h('legend', {}, 'Events'),
      EVENT_TYPES.map((t) => h('label', { class: 'check' },
        h('input', { type: 'checkbox', name: 'type:' + t, id: 'f-type-' + t, checked: DEFAULT_TYPES.includes(t) }), ' ' + t,
        TYPE_HINTS[t] ? h('span', { class: 'muted small' }, ' — ' + TYPE_HINTS[t]) : null))),
    items,
  ], 'Create webhook', async (v) => {
    const filled = items.values();
    const body = {
      network: v.network,
      url: v.url.trim() || null,
      description: v.description,
      event_types: EVENT_TYPES.filter((t) => v['type:' + t] === 'on'),
      format: v.format,
      items: filled.map(({ kind, value }) => ({ kind, value })),
    };
    const depth = v.depth.trim();
    if (depth !== '') body.depth = /^\d+$/.test(depth) ? Number(depth) : depth;
    for (const it of filled) it.row.removeAttribute('aria-invalid');
    try {
      return await api('POST', `/v1/admin/users/${userId}/webhooks`, body);
    } catch (e) {
      // "Invalid items[i]: …" names the i-th filled row: mark it.
      const m = /^Invalid items\[(\d+)\]/.exec(e.message);
      const bad = m && filled[Number(m[1])];
      if (bad) {
        bad.row.setAttribute('aria-invalid', 'true');
        bad.row.querySelector('input').focus();
      }
      throw e;
    }
  }, { wide: true });
  if (!env) return null;
  const w = env.data;
  await keyOnce('The webhook’s signing secret', w.secret,
    w.format === 'blockfrost'
      ? 'The receiver checks the Blockfrost-Signature header with it (blockfrost-js verifyWebhookSignature, the secret as the auth token).'
      : 'The receiver checks the webhook-signature header with it (Standard Webhooks).',
    { what: 'secret' });
  return w;
}
