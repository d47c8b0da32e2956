// Loads every pinned package both ways (import and require) and uses the
// WebAssembly inside: Lucid's CML builds an address, Mesh reads it back.
// Prints one JSON object.
import { createRequire } from "node:module";
import * as openapi from "@blockfrost/openapi";
import * as blockfrost from "@blockfrost/blockfrost-js";
import * as lucid from "@lucid-evolution/lucid";
import * as provider from "@lucid-evolution/provider";
import * as mesh from "@meshsdk/core";

const require = createRequire(import.meta.url);
const loaded = {};
for (const [name, esm, key] of [
  ["@blockfrost/openapi", openapi, "getSchemaForEndpoint"],
  ["@blockfrost/blockfrost-js", blockfrost, "BlockFrostAPI"],
  ["@lucid-evolution/lucid", lucid, "Lucid"],
  ["@lucid-evolution/provider", provider, "Blockfrost"],
  ["@meshsdk/core", mesh, "BlockfrostProvider"],
]) {
  loaded[name] = { import: typeof esm[key], require: typeof require(name)[key] };
}

const keyHash = "9493315cd92eb5d8c4304e67b7e16ae36d61d34502694657811a2c8e";
const { CML } = lucid;
const address = CML.EnterpriseAddress.new(1, CML.Credential.new_pub_key(CML.Ed25519KeyHash.from_hex(keyHash)))
  .to_address()
  .to_bech32();
const schema = openapi.getSchemaForEndpoint("/addresses/{address}/utxos");

console.log(JSON.stringify({
  node: process.version,
  loaded,
  address,
  meshKeyHash: mesh.deserializeAddress(address).pubKeyHash,
  bigInteger: CML.BigInteger.from_str("123456789012345678901234567890").to_str(),
  utxoRequired: schema.response[200].items.required,
}));
