// keyUsage shows how to call the API with a data key: /v1 with curl, and
// the Blockfrost dialect (/api/v0) with blockfrost-js, Lucid Evolution and
// Mesh, whose BlockfrostProvider sends no header to a custom URL and so
// takes the key in the path (docs/DECISIONS.md "Blockfrost dialect").
import { h } from './dom.js';

export function keyUsage(key, network = 'Mainnet') {
  const base = location.origin;
  const snippets = [
    ['curl (/v1)', `curl -H "Authorization: Bearer ${key}" ${base}/v1/epochs/latest`],
    ['curl (Blockfrost)', `curl -H "project_id: ${key}" ${base}/api/v0/blocks/latest`],
    ['blockfrost-js', `new BlockFrostAPI({ projectId: "${key}", customBackend: "${base}/api/v0" })`],
    ['Lucid Evolution', `await Lucid(new Blockfrost("${base}/api/v0", "${key}"), "${network}")`],
    ['Mesh', `new BlockfrostProvider("${base}/key/${key}/api/v0")`],
  ];
  return h('div', { class: 'key-usage' },
    h('p', { class: 'muted' }, 'Use it with:'),
    ...snippets.map(([name, code]) => h('div', { class: 'snippet' },
      h('span', { class: 'muted' }, name), h('pre', {}, h('code', {}, code)))));
}
