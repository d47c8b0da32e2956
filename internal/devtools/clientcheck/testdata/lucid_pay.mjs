// Lucid Evolution 0.4.34 with its Blockfrost provider, unchanged, against
// syncgate at BF_URL with the key BF_KEY: from the wallet of the signing
// key WALLET_SKEY (ed25519_sk…), a payment of PAY (JSON: to, lovelace,
// unit, quantity, message) carrying a native token and a CIP-20 message
// (label 674), built, signed, submitted, awaited until it is in a block,
// then the receiver's UTxOs read back. Prints one JSON object. With GATE
// set, it loads, then waits for that file to exist before it reads the
// chain (the test loads it while other clients run).
import { existsSync } from "node:fs";
import { Blockfrost, Lucid } from "@lucid-evolution/lucid";

const pay = JSON.parse(process.env.PAY);
while (process.env.GATE && !existsSync(process.env.GATE)) {
  await new Promise((r) => setTimeout(r, 100));
}
const started = Date.now();
const lucid = await Lucid(new Blockfrost(process.env.BF_URL, process.env.BF_KEY), "Mainnet");
lucid.selectWallet.fromPrivateKey(process.env.WALLET_SKEY);
const from = await lucid.wallet().address();
const params = lucid.config().protocolParameters;
const walletUtxos = (await lucid.wallet().getUtxos()).length;
const before = await lucid.utxosAt(pay.to);

const tx = await lucid
  .newTx()
  .pay.ToAddress(pay.to, { lovelace: BigInt(pay.lovelace), [pay.unit]: BigInt(pay.quantity) })
  .attachMetadata(674, { msg: [pay.message] })
  .complete();
const signed = await tx.sign.withWallet().complete();
const hash = await signed.submit();
const submitted = Date.now();
const confirmed = await lucid.awaitTx(hash);
const awaited = Date.now();
const after = await lucid.utxosAt(pay.to);

console.log(JSON.stringify({
  from, walletUtxos, hash, confirmed, params,
  before, after,
  ms: { build: submitted - started, await: awaited - submitted },
}, (_, v) => (typeof v === "bigint" ? v.toString() : v)));
