// Stacked bar charts drawn as SVG by our own code: two series (successful,
// failed) per bucket, which is what the usage API reports. No library: a
// few dozen lines, nothing to vendor or keep up to date, and the strict
// Content-Security-Policy needs no exceptions.
import { h, s, fmtNum } from './dom.js';

const W = 720, H = 220, PAD_L = 44, PAD_B = 26, PAD_T = 10, PAD_R = 8;

// niceMax rounds the tallest bar up to 1, 2 or 5 × a power of ten.
function niceMax(v) {
  if (v <= 4) return 4;
  const p = 10 ** Math.floor(Math.log10(v));
  for (const m of [1, 2, 2.5, 5, 10]) if (m * p >= v) return m * p;
  return 10 * p;
}

// stackedBars: buckets [{key, label, ok, failed}], oldest first; every
// labelEvery-th label is written under the axis.
export function stackedBars(title, buckets, { labelEvery = 1, id } = {}) {
  const ok = buckets.reduce((a, b) => a + b.ok, 0);
  const failed = buckets.reduce((a, b) => a + b.failed, 0);
  const max = niceMax(Math.max(0, ...buckets.map((b) => b.ok + b.failed)));
  const plotW = W - PAD_L - PAD_R, plotH = H - PAD_T - PAD_B;
  const step = plotW / Math.max(1, buckets.length);
  const bw = Math.max(1, step * 0.72);
  const y = (v) => PAD_T + plotH - (v / max) * plotH;
  const grid = [0, 0.25, 0.5, 0.75, 1].map((f) => [
    s('line', { x1: PAD_L, x2: W - PAD_R, y1: y(max * f), y2: y(max * f), class: 'grid' }),
    s('text', { x: PAD_L - 6, y: y(max * f) + 4, class: 'axis', 'text-anchor': 'end' }, fmtNum(Math.round(max * f))),
  ]);
  const bars = buckets.map((b, i) => {
    const x = PAD_L + i * step + (step - bw) / 2;
    return s('g', { class: 'bar', 'data-key': b.key },
      s('title', {}, `${b.label}: ${fmtNum(b.ok + b.failed)} requests (${fmtNum(b.ok)} successful, ${fmtNum(b.failed)} failed)`),
      s('rect', { x: x - (step - bw) / 2, y: PAD_T, width: step, height: plotH, class: 'hit' }),
      b.ok ? s('rect', { x, y: y(b.ok), width: bw, height: y(0) - y(b.ok), class: 'ok' }) : null,
      b.failed ? s('rect', { x, y: y(b.ok + b.failed), width: bw, height: y(b.ok) - y(b.ok + b.failed), class: 'failed' }) : null,
      i % labelEvery === 0 ? s('text', { x: x + bw / 2, y: H - 8, class: 'axis', 'text-anchor': 'middle' }, b.label) : null);
  });
  const svg = s('svg', {
    viewBox: `0 0 ${W} ${H}`, class: 'chart', role: 'img', preserveAspectRatio: 'none',
    'aria-label': `${title}: ${ok + failed} requests, ${ok} successful, ${failed} failed`,
  }, grid, bars);
  return h('figure', { class: 'chart-box', id, 'data-total': ok + failed, 'data-ok': ok, 'data-failed': failed },
    h('figcaption', {}, h('strong', {}, title),
      h('span', { class: 'legend' },
        h('span', { class: 'sw ok' }), '2xx/3xx successful ', h('span', { class: 'sw failed' }), '4xx/5xx failed')),
    svg,
    h('p', { class: 'chart-total' }, `${fmtNum(ok + failed)} requests: ${fmtNum(ok)} successful, ${fmtNum(failed)} failed`));
}

// lastDays returns the last n UTC days (YYYY-MM-DD), oldest first, ending today.
export function lastDays(n, now = new Date()) {
  const out = [];
  const t = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  for (let i = n - 1; i >= 0; i--) out.push(new Date(t - i * 864e5).toISOString().slice(0, 10));
  return out;
}

// lastHours returns the last n UTC hour starts (ISO, ".000Z"), ending with the current hour.
export function lastHours(n, now = new Date()) {
  const out = [];
  const t = Math.floor(now.getTime() / 36e5) * 36e5;
  for (let i = n - 1; i >= 0; i--) out.push(new Date(t - i * 36e5).toISOString());
  return out;
}

// dailyBuckets fills the days without traffic with zeros; rows are
// summed per date (several credentials' days add up).
export function dailyBuckets(days, rows) {
  const by = new Map(days.map((d) => [d, { key: d, label: d.slice(5), ok: 0, failed: 0 }]));
  for (const r of rows) {
    const b = by.get(r.date);
    if (b) { b.ok += r.successful_requests; b.failed += r.failed_requests; }
  }
  return [...by.values()];
}

export function hourlyBuckets(hours, rows) {
  const by = new Map(hours.map((t) => [t, { key: t, label: t.slice(11, 13) + 'h', ok: 0, failed: 0 }]));
  for (const r of rows) {
    const b = by.get(r.hour);
    if (b) { b.ok += r.successful_requests; b.failed += r.failed_requests; }
  }
  return [...by.values()];
}
