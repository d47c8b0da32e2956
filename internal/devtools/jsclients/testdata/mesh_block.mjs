// Mesh's BlockfrostProvider given a URL (BF_URL, with the key in its
// path): a block (BF_BLOCK), then the UTxOs of BF_ADDRESS.
import { BlockfrostProvider } from "@meshsdk/core";

const provider = new BlockfrostProvider(process.env.BF_URL);
const block = await provider.fetchBlockInfo(process.env.BF_BLOCK);
const utxos = await provider.fetchAddressUTxOs(process.env.BF_ADDRESS);
console.log(JSON.stringify({ block, utxos: utxos.length, firstUtxo: utxos[0] }));
