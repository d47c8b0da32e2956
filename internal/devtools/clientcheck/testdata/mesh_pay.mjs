// Mesh 1.9.1's BlockfrostProvider, unchanged, given syncgate's URL with
// the key in its path (BF_URL: Mesh sends no project_id header to a URL
// of its own): the UTxOs of the wallet at WALLET_ADDRESS, a payment of PAY
// (JSON: to, lovelace, unit, quantity, message) with a native token and a
// CIP-20 message built by MeshTxBuilder, signed by a MeshWallet of the
// cardano-cli signing key WALLET_SKEY_CBOR (5820…), submitted, and
// onTxConfirmed waited for. Prints one JSON object. With GATE set, it
// loads, then waits for that file to exist before it reads the chain (the
// test loads it while another wallet spends from the same address).
// With READS set (JSON: accounts, assetAddresses, assetMetadata,
// collections, handle, proposal), it first makes the provider's account,
// asset, handle and governance reads while the chain stands still and
// creates the file READS_DONE; their answers print under "reads", keyed
// "method|arg", each {ok} or {err: {status_code, message}}.
import { existsSync, writeFileSync } from "node:fs";
import { BlockfrostProvider, MeshTxBuilder, MeshWallet } from "@meshsdk/core";

const pay = JSON.parse(process.env.PAY);
const from = process.env.WALLET_ADDRESS;
const provider = new BlockfrostProvider(process.env.BF_URL);
const wallet = new MeshWallet({ networkId: 1, fetcher: provider, submitter: provider,
  key: { type: "cli", payment: process.env.WALLET_SKEY_CBOR } });
await wallet.init();
const reads = {};
if (process.env.READS) {
  const r = JSON.parse(process.env.READS);
  const read = async (method, ...args) => {
    const key = [method, ...args].join("|");
    try {
      reads[key] = { ok: await provider[method](...args) };
    } catch (thrown) {
      // Mesh throws its HTTP errors as JSON text, at times encoded twice.
      let e = thrown;
      for (let i = 0; i < 3 && typeof e === "string"; i++) {
        try { e = JSON.parse(e); } catch { break; }
      }
      reads[key] = { err: { status_code: e?.status ?? null, message: String(e?.data?.message ?? e?.message ?? JSON.stringify(e)) } };
    }
  };
  for (const a of r.accounts) await read("fetchAccountInfo", a);
  for (const a of r.assetAddresses) await read("fetchAssetAddresses", a);
  for (const a of r.assetMetadata) await read("fetchAssetMetadata", a);
  for (const p of r.collections) await read("fetchCollectionAssets", p);
  if (r.handle) await read("fetchHandle", r.handle);
  if (r.proposal) await read("fetchGovernanceProposal", r.proposal.tx_hash, r.proposal.cert_index);
  writeFileSync(process.env.READS_DONE, "");
}
while (process.env.GATE && !existsSync(process.env.GATE)) {
  await new Promise((r) => setTimeout(r, 100));
}
const started = Date.now();
const params = await provider.fetchProtocolParameters();
const utxos = await provider.fetchAddressUTxOs(from);

const builder = new MeshTxBuilder({ fetcher: provider, submitter: provider });
const unsigned = await builder
  .txOut(pay.to, [{ unit: "lovelace", quantity: pay.lovelace }, { unit: pay.unit, quantity: pay.quantity }])
  .metadataValue(674, { msg: [pay.message] })
  .changeAddress(from)
  .selectUtxosFrom(utxos)
  .complete();
const signed = await wallet.signTx(unsigned);
const hash = await provider.submitTx(signed);
const submitted = Date.now();
const confirmed = await new Promise((resolve, reject) => {
  const timer = setTimeout(() => reject(new Error("onTxConfirmed did not fire within 90 s")), 90_000);
  provider.onTxConfirmed(hash, () => { clearTimeout(timer); resolve(true); });
});
const awaited = Date.now();
const after = await provider.fetchAddressUTxOs(pay.to);
const info = await provider.fetchTxInfo(hash);

console.log(JSON.stringify({
  walletUtxos: utxos.length, params, hash, confirmed, after, info, reads,
  ms: { build: submitted - started, await: awaited - submitted },
}));
