// blockfrost-js against BF_URL (…/api/v0) with the key BF_KEY: health,
// then every UTxO of BF_ADDRESS (addressesUtxosAll walks the pages).
import { BlockFrostAPI } from "@blockfrost/blockfrost-js";

const api = new BlockFrostAPI({ projectId: process.env.BF_KEY, customBackend: process.env.BF_URL, rateLimiter: false });
const health = await api.health();
const out = { health };
if (process.env.BF_ADDRESS) {
  out.utxos = (await api.addressesUtxosAll(process.env.BF_ADDRESS)).length;
}
console.log(JSON.stringify(out));
