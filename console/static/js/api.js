// The admin API client. The admin key lives in this tab's sessionStorage
// only: never a cookie, never a URL; sign-out removes it.

const STORE = 'syncgate.console.adminKey';

export const session = {
  key: () => sessionStorage.getItem(STORE),
  set: (k) => sessionStorage.setItem(STORE, k),
  clear: () => sessionStorage.removeItem(STORE),
};

// ApiError carries the API's own words (the envelope's "error").
export class ApiError extends Error {
  constructor(status, message) {
    super(message);
    this.status = status;
  }
}

let unauthorized = () => {};
// onUnauthorized sets what a 401 does (back to sign-in).
export function onUnauthorized(fn) { unauthorized = fn; }

// api sends one admin request; it resolves to the envelope or throws ApiError.
export async function api(method, path, body, key) {
  const headers = { Authorization: 'Bearer ' + (key ?? session.key() ?? '') };
  const init = { method, headers, cache: 'no-store', credentials: 'omit', redirect: 'error' };
  if (body !== undefined) {
    headers['Content-Type'] = 'application/json';
    init.body = JSON.stringify(body);
  }
  let res;
  try {
    res = await fetch(path, init);
  } catch {
    throw new ApiError(0, 'The service did not answer. Check the connection and try again.');
  }
  let env = null;
  try { env = await res.json(); } catch { /* not JSON: reported below */ }
  if (!res.ok || !env || env.success !== true) {
    const msg = (env && env.error) || `HTTP ${res.status}`;
    if (res.status === 401 && key === undefined) unauthorized(msg);
    throw new ApiError(res.status, msg);
  }
  return env;
}

export const get = (path) => api('GET', path);

// query builds a query string from the non-empty values of params.
export function query(params) {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) {
    if (v !== undefined && v !== null && v !== '') q.set(k, String(v));
  }
  const s = q.toString();
  return s ? '?' + s : '';
}

// getAll walks a paginated list 100 at a time, at most max items; it
// returns the items and whether the list was longer than max.
export async function getAll(path, params = {}, max = 2000) {
  const out = [];
  for (let offset = 0; ; offset += 100) {
    const env = await get(path + query({ ...params, limit: 100, offset }));
    out.push(...env.data);
    const total = env.pagination ? env.pagination.total : out.length;
    if (env.data.length === 0 || out.length >= total) return { items: out, truncated: false };
    if (out.length >= max) return { items: out.slice(0, max), truncated: true };
  }
}
