// Small DOM helpers. Text always goes in as text (no innerHTML anywhere),
// so nothing the API returns can become markup.

export function h(tag, attrs, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith('on')) el.addEventListener(k.slice(2), v);
    else if (k === 'class') el.className = v;
    else if (k === 'text') el.textContent = v;
    else if (k in el && typeof v !== 'string') el[k] = v;
    else el.setAttribute(k, v === true ? '' : v);
  }
  append(el, children);
  return el;
}

function append(el, children) {
  for (const c of children.flat(Infinity)) {
    if (c === undefined || c === null || c === false) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
}

const SVG = 'http://www.w3.org/2000/svg';
export function s(tag, attrs, ...children) {
  const el = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v !== undefined && v !== null) el.setAttribute(k, String(v));
  }
  for (const c of children.flat()) {
    if (c !== undefined && c !== null) el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return el;
}

// fmtTime shows an ISO time as "2026-11-25 14:05 UTC" ("—" for none).
export function fmtTime(iso) {
  if (!iso) return '—';
  return iso.slice(0, 16).replace('T', ' ') + ' UTC';
}

export const fmtNum = (n) => Number(n).toLocaleString('en-US');

export const NETWORKS = ['Mainnet', 'Preview', 'Preprod'];

export function badge(text, kind) {
  return h('span', { class: 'badge ' + (kind || text) }, text);
}

// alertBox is where an API error shows, in the API's words.
export function alertBox() {
  const el = h('p', { class: 'alert', role: 'alert', hidden: true });
  el.show = (msg) => { el.textContent = msg; el.hidden = !msg; };
  return el;
}

// table renders rows with the given columns: {label, cell(row), opt}.
// opt columns hide on narrow screens.
export function table(cols, rows, { onRow, empty = 'Nothing here yet.', label } = {}) {
  if (rows.length === 0) return h('p', { class: 'muted empty' }, empty);
  return h('div', { class: 'table-wrap' },
    h('table', { 'aria-label': label },
      h('thead', {}, h('tr', {}, cols.map((c) => h('th', { class: c.opt ? 'opt' : c.num ? 'num' : undefined }, c.label)))),
      h('tbody', {}, rows.map((r) => h('tr', {
        class: onRow ? 'click' : undefined,
        onclick: onRow ? (ev) => { if (!ev.target.closest('button,a')) onRow(r); } : undefined,
      }, cols.map((c) => h('td', { class: c.opt ? 'opt' : c.num ? 'num' : undefined, 'data-label': c.label }, c.cell(r))))))));
}

// pager shows "1–20 of 57" with previous/next buttons.
export function pager(offset, limit, total, go) {
  const end = Math.min(offset + limit, total);
  return h('div', { class: 'pager' },
    h('button', { type: 'button', class: 'btn small', disabled: offset === 0, onclick: () => go(Math.max(0, offset - limit)) }, '‹ Previous'),
    h('span', { class: 'muted' }, total === 0 ? '0 of 0' : `${offset + 1}–${end} of ${fmtNum(total)}`),
    h('button', { type: 'button', class: 'btn small', disabled: end >= total, onclick: () => go(offset + limit) }, 'Next ›'));
}

// busy disables a button while fn runs.
export async function busy(btn, fn) {
  btn.disabled = true;
  try { return await fn(); } finally { btn.disabled = false; }
}
