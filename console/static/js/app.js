// The console's shell: sign-in, navigation, routing (#/…), sign-out.
import { api, session, onUnauthorized } from './api.js';
import { h, alertBox } from './dom.js';
import { usersView, userView } from './users.js';
import { usageView, credentialUsageView, userUsageView } from './usage.js';
import { auditView } from './audit.js';
import { keysView, securityView } from './keys.js';
import { webhooksView, userWebhooksView, webhookView } from './webhooks.js';
import { plansView } from './plans.js';

const main = document.getElementById('main');
const nav = document.getElementById('nav');
const top = document.getElementById('top');
let me = null; // the signed-in key (GET /v1/admin/me), in memory only
let renderSeq = 0;

const can = (perm) => me && (me.bootstrap || me.permissions.includes(perm));

// Sections by what the key may do; the bootstrap key owns no users, so it
// gets the audit log, admin keys and security events.
function sections() {
  const out = [];
  if (me.bootstrap) {
    out.push(['#/keys', 'Admin keys'], ['#/security', 'Security events'], ['#/audit', 'Audit log']);
    return out;
  }
  if (can('manage_users')) out.push(['#/users', 'Users'], ['#/plans', 'Plans'], ['#/webhooks', 'Webhooks']);
  if (can('view_usage')) out.push(['#/usage', 'Usage']);
  if (can('view_audit_logs')) out.push(['#/audit', 'Audit log']);
  return out;
}

const routes = [
  [/^#\/users$/, usersView],
  [/^#\/users\/([0-9a-f-]{36})$/, userView],
  [/^#\/plans$/, plansView],
  [/^#\/webhooks$/, webhooksView],
  [/^#\/webhooks\/user\/([0-9a-f-]{36})$/, userWebhooksView],
  [/^#\/webhooks\/user\/([0-9a-f-]{36})\/([0-9a-f-]{36})$/, webhookView],
  [/^#\/usage$/, usageView],
  [/^#\/usage\/credential\/([0-9a-f-]{36})$/, credentialUsageView],
  [/^#\/usage\/user\/([0-9a-f-]{36})$/, userUsageView],
  [/^#\/audit$/, auditView],
  [/^#\/keys$/, keysView],
  [/^#\/security$/, securityView],
];

function signInView(message) {
  me = null;
  top.hidden = true;
  nav.replaceChildren();
  const err = alertBox();
  err.show(message || '');
  const input = h('input', { id: 'signin-key', name: 'key', type: 'password', autocomplete: 'off', spellcheck: 'false', required: true, placeholder: 'sga1_…' });
  const btn = h('button', { type: 'submit', class: 'btn primary', id: 'signin-submit' }, 'Sign in');
  const form = h('form', { class: 'card signin', id: 'signin' },
    h('h1', {}, h('span', { class: 'logo' }, '◆'), ' syncgate console'),
    h('p', { class: 'muted' }, 'Sign in with an admin key. It is kept in this tab only and forgotten when you sign out or close the tab.'),
    h('div', { class: 'field' }, h('label', { for: 'signin-key' }, 'Admin key'), input),
    err, h('div', { class: 'actions' }, btn));
  form.addEventListener('submit', async (ev) => {
    ev.preventDefault();
    const key = input.value.trim();
    if (!key) { err.show('Enter an admin key.'); return; }
    btn.disabled = true;
    try {
      const env = await api('GET', '/v1/admin/me', undefined, key);
      session.set(key);
      me = env.data;
      input.value = '';
      start();
    } catch (e) {
      err.show(e.message);
    } finally {
      btn.disabled = false;
    }
  });
  main.replaceChildren(form);
  input.focus();
}

function signOut(message) {
  session.clear();
  me = null;
  history.replaceState(null, '', '#/');
  signInView(message);
}

onUnauthorized((msg) => signOut(msg));

function start() {
  top.hidden = false;
  document.getElementById('who').textContent = me.bootstrap ? 'bootstrap key' : me.admin_entity_name;
  const secs = sections();
  if (!routes.some(([re]) => re.test(location.hash)) && secs.length) location.hash = secs[0][0];
  else route();
}

async function route() {
  if (!me) return;
  const secs = sections();
  nav.replaceChildren(...secs.map(([href, label]) =>
    h('a', { href, class: location.hash.startsWith(href) ? 'active' : undefined }, label)));
  const seq = ++renderSeq;
  const view = h('section', { class: 'view' });
  main.replaceChildren(view);
  if (secs.length === 0) {
    view.append(h('p', { class: 'alert' }, 'This admin key holds no permission the console can use.'));
    return;
  }
  for (const [re, fn] of routes) {
    const m = location.hash.match(re);
    if (!m) continue;
    const ctx = { me, can, stale: () => seq !== renderSeq, rerender: route };
    try {
      await fn(view, ctx, ...m.slice(1));
    } catch (e) {
      if (e.status !== 401 && seq === renderSeq) view.append(h('p', { class: 'alert', role: 'alert' }, e.message));
    }
    return;
  }
  location.hash = secs[0][0];
}

window.addEventListener('hashchange', route);
document.getElementById('signout').addEventListener('click', () => signOut('Signed out.'));

(async function boot() {
  const key = session.key();
  if (!key) { signInView(); return; }
  try {
    me = (await api('GET', '/v1/admin/me', undefined, key)).data;
    start();
  } catch (e) {
    if (e.status === 401) signOut(e.message);
    else signInView(e.message);
  }
})();
