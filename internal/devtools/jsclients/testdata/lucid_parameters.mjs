// Lucid Evolution's Blockfrost provider against BF_URL (…/api/v0) with
// the key BF_KEY: the protocol parameters, then a Lucid instance built on
// them (CML, WebAssembly, takes the parameters in), then the UTxOs of
// BF_ADDRESS.
import { Blockfrost, Lucid } from "@lucid-evolution/lucid";

const provider = new Blockfrost(process.env.BF_URL, process.env.BF_KEY);
const params = await provider.getProtocolParameters();
const lucid = await Lucid(provider, "Mainnet");
const config = lucid.config();
const utxos = await provider.getUtxos(process.env.BF_ADDRESS);
console.log(JSON.stringify({
  params,
  network: config.network,
  lucidMinFeeA: config.protocolParameters?.minFeeA,
  utxos,
}, (_, v) => (typeof v === "bigint" ? v.toString() : v)));
