// Mesh 1.9.1's BlockfrostProvider, unchanged, given syncgate's URL with
// the key in its path (BF_URL: Mesh sends no project_id header to a URL
// of its own): the UTxOs of the wallet at WALLET_ADDRESS, a payment of PAY
// (JSON: to, lovelace, unit, quantity, message) with a native token and a
// CIP-20 message built by MeshTxBuilder, signed by a MeshWallet of the
// cardano-cli signing key WALLET_SKEY_CBOR (5820…), submitted, and
// onTxConfirmed waited for. Prints one JSON object. With GATE set, it
// loads, then waits for that file to exist before it reads the chain (the
// test loads it while another wallet spends from the same address).
import { existsSync } from "node:fs";
import { BlockfrostProvider, MeshTxBuilder, MeshWallet } from "@meshsdk/core";

const pay = JSON.parse(process.env.PAY);
const from = process.env.WALLET_ADDRESS;
const provider = new BlockfrostProvider(process.env.BF_URL);
const wallet = new MeshWallet({ networkId: 1, fetcher: provider, submitter: provider,
  key: { type: "cli", payment: process.env.WALLET_SKEY_CBOR } });
await wallet.init();
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
  walletUtxos: utxos.length, params, hash, confirmed, after, info,
  ms: { build: submitted - started, await: awaited - submitted },
}));
