// blockfrost-js 6.2.0, unchanged, against syncgate's Blockfrost dialect at
// BF_URL with the key BF_KEY: every SDK method of the dialect's routes
// (the *All helpers walk every page), with the entities BF_INPUT names
// (JSON). Prints one JSON object: for each call, keyed
// "method|arg|arg", {ok: answer} or {err: {status_code, error, message,
// url}}; the Go test compares the answers with SQL of its own.
import { BlockFrostAPI, deriveAddress } from "@blockfrost/blockfrost-js";

const input = JSON.parse(process.env.BF_INPUT);
const api = new BlockFrostAPI({ projectId: process.env.BF_KEY, customBackend: process.env.BF_URL, rateLimiter: false });
const out = {};

// keyOf names a call: the method and its arguments (options as k=v&…).
const keyOf = (method, args) =>
  [method, ...args.map((a) => (typeof a === "object" ? Object.entries(a).map(([k, v]) => `${k}=${v}`).join("&") : a))].join("|");

async function call(method, ...args) {
  return callAs(keyOf(method, args), method, ...args);
}

async function callAs(key, method, ...args) {
  return callOn(api, key, method, ...args);
}

// gcall calls a method of the SDK's governance API (api.governance).
async function gcall(method, ...args) {
  return callOn(api.governance, keyOf(method, args), method, ...args);
}

async function callOn(target, key, method, ...args) {
  try {
    out[key] = { ok: await target[method](...args) };
  } catch (e) {
    out[key] = { err: { status_code: e.status_code ?? null, error: e.error ?? e.name, message: e.message, url: e.url ?? null } };
  }
}

// get is a raw GET through the SDK's own HTTP client (its headers, its
// retries) for a route the SDK has no method for.
async function get(name, path) {
  try {
    out[name] = { ok: (await api.instance.get(path)).body };
  } catch (e) {
    const body = e.response?.body;
    out[name] = { err: { status_code: e.response?.statusCode ?? null, error: body?.error ?? e.name, message: body?.message ?? e.message, url: path } };
  }
}

// pages walks a paged method without an *All helper, count 100, until a
// short page: what the *All helpers do, one page at a time.
async function pages(method, ...args) {
  return pagesOn(api, method, ...args);
}

async function pagesOn(target, method, ...args) {
  const key = [method + "Pages", ...args].join("|");
  const all = [];
  for (let page = 1; ; page++) {
    try {
      const got = await target[method](...args, { page, count: 100 });
      all.push(...got);
      if (got.length < 100) break;
    } catch (e) {
      out[key] = { err: { status_code: e.status_code ?? null, error: e.error ?? e.name, message: e.message, url: e.url ?? null } };
      return;
    }
  }
  out[key] = { ok: all };
}

// Health and the root.
await call("root");
await call("health");
await call("healthClock");

// Network, eras, genesis.
await call("network");
await call("networkEras");
await call("genesis");

// Epochs.
const e = input.epoch;
await call("epochsLatest");
await call("epochs", e);
await call("epochsNext", e);
await call("epochsPrevious", e);
await call("epochsStakes", e);
await call("epochsStakesAll", e);
await call("epochsStakesByPoolId", e, input.pool);
await call("epochsStakesByPoolIdAll", e, input.pool);
await call("epochsBlocks", e);
await call("epochsBlocksAll", e);
await call("epochsBlocksAll", e, { order: "desc" });
await call("epochsBlocksByPoolId", e, input.pool);
await call("epochsBlocksByPoolIdAll", e, input.pool);
await call("epochsParameters", e);
await call("epochsLatestParameters");

// Blocks.
await call("blocksLatest");
await call("blocks", input.block);
await call("blocks", input.blockHeight);
await call("blocksLatestTxs");
await call("blocksLatestTxsAll");
await call("blocksLatestTxsCbor");
await call("blocksNext", input.blockHeight);
await call("blocksPrevious", input.blockHeight);
await call("blocksTxs", input.block);
await call("blocksTxsAll", input.block);
await call("blocksTxsAll", input.block, { order: "desc" });
await call("blocksTxsCbor", input.cborBlock);
await call("blocksTxsCborAll", input.cborBlock);
await call("blocksBySlot", input.slot);
await call("blocksByEpochAndSlot", input.slotEpoch, input.epochSlot);
await call("blocksAddresses", input.block);
await call("blocksAddressesAll", input.block);

// Transactions, every sub-resource of each.
for (const h of input.txs) {
  for (const m of ["txs", "txsUtxos", "txsStakes", "txsDelegations", "txsWithdrawals", "txsMirs", "txsPoolUpdates",
    "txsPoolRetires", "txsMetadata", "txsMetadataCbor", "txsRedeemers", "txsRequiredSigners", "txsCbor"]) {
    await call(m, h);
  }
}

// Addresses.
for (const a of input.addresses) {
  await call("addresses", a);
  await call("addressesTotal", a);
  await call("addressesExtended", a);
  await call("addressesTransactions", a);
  await call("addressesTransactionsAll", a);
  await call("addressesTransactionsAll", a, { order: "desc" });
  await call("addressesUtxos", a);
  await call("addressesUtxosAll", a);
}
await call("addressesUtxosAsset", input.assetAddress, input.asset);
await call("addressesUtxosAssetAll", input.assetAddress, input.asset);
await get("addressesTxs|" + input.addresses[0], `addresses/${input.addresses[0]}/txs?count=100&page=1`);

// Scripts and datums.
await call("scripts");
await pages("scripts");
for (const h of input.scripts) {
  await call("scriptsByHash", h);
  await call("scriptsJson", h);
  await call("scriptsCbor", h);
  await pages("scriptsRedeemers", h);
  await call("scriptsUtxos", h);
  await call("scriptsUtxosAll", h);
}
for (const d of input.datums) {
  await call("scriptsDatum", d);
  await call("scriptsDatumCbor", d);
}

// Accounts: every method of each stake account.
for (const s of input.accounts) {
  await call("accounts", s);
  for (const m of ["accountsRewards", "accountsHistory", "accountsDelegations", "accountsRegistrations", "accountsWithdrawals",
    "accountsMirs", "accountsAddresses", "accountsAddressesAssets", "accountsUtxos", "accountsTransactions"]) {
    await call(m, s);
    await call(m + "All", s);
  }
  await call("accountsAddressesTotal", s);
}
await call("accountsRewardsAll", input.accounts[0], { order: "desc" });

// Assets: the list, each asset, each policy.
await call("assets");
await pages("assets");
for (const a of input.assets) {
  await call("assetsById", a);
  await call("assetsHistory", a);
  await call("assetsHistoryAll", a);
  await call("assetsTransactions", a);
  await pages("assetsTransactions", a);
  await call("assetsAddresses", a);
  await pages("assetsAddresses", a);
  await call("assetsUtxos", a);
  await call("assetsUtxosAll", a);
  await get("assetsTxs|" + a, `assets/${a}/txs?count=100&page=1`);
}
for (const p of input.policies) {
  await call("assetsPolicyById", p);
  await call("assetsPolicyByIdAll", p);
}

// Metadata labels.
await call("metadataTxsLabels");
await pages("metadataTxsLabels");
for (const l of input.labels) {
  await call("metadataTxsLabel", l);
  await pages("metadataTxsLabel", l);
  await call("metadataTxsLabelCbor", l);
  await pages("metadataTxsLabelCbor", l);
}

// Pools: the lists, then every method of each pool.
await call("pools");
await call("poolsAll");
await call("poolsExtended");
await call("poolsExtendedAll");
await pages("poolsRetired");
await pages("poolsRetiring");
for (const p of input.pools) {
  await call("poolsById", p);
  await call("poolMetadata", p);
  await call("poolsByIdRelays", p);
  await pages("poolsByIdHistory", p);
  await pages("poolsByIdDelegators", p);
  await pages("poolsByIdBlocks", p);
  await pages("poolsByIdUpdates", p);
  await call("poolsByIdVotes", p);
  await call("poolsByIdVotesAll", p);
}

// Governance: the committee, DReps, proposals by both identifiers.
const gov = input.governance;
await gcall("committee");
await gcall("committeeVotes");
await gcall("committeeVotesAll");
for (const c of gov.committee) {
  await gcall("committeeMemberVotes", c);
  await gcall("committeeMemberVotesAll", c);
}
await gcall("dreps");
await pagesOn(api.governance, "dreps");
for (const d of gov.dreps) {
  await gcall("drepsById", d);
  await gcall("drepsByIdMetadata", d);
  await gcall("drepsByIdDelegators", d);
  await gcall("drepsByIdDelegatorsAll", d);
  await gcall("drepsByIdUpdates", d);
  await gcall("drepsByIdUpdatesAll", d);
  await gcall("drepsByIdVotes", d);
  await gcall("drepsByIdVotesAll", d);
}
await gcall("proposals");
await pagesOn(api.governance, "proposals");
for (const p of gov.proposals) {
  await gcall("proposal", p.tx_hash, p.cert_index);
  await gcall("proposalParameters", p.tx_hash, p.cert_index);
  await gcall("proposalWithdrawals", p.tx_hash, p.cert_index);
  await gcall("proposalWithdrawalsAll", p.tx_hash, p.cert_index);
  await gcall("proposalVotes", p.tx_hash, p.cert_index);
  await gcall("proposalVotesAll", p.tx_hash, p.cert_index);
  await gcall("proposalMetadata", p.tx_hash, p.cert_index);
  await gcall("proposalByGovActionId", p.id);
  await gcall("proposalParametersByGovActionId", p.id);
  await gcall("proposalWithdrawalsByGovActionId", p.id);
  await gcall("proposalWithdrawalsByGovActionIdAll", p.id);
  await gcall("proposalVotesByGovActionId", p.id);
  await gcall("proposalVotesByGovActionIdAll", p.id);
  await gcall("proposalMetadataByGovActionId", p.id);
}

// Utilities: the xpub derivation has no SDK method; evaluation does.
// The SDK's own offline derivation is what the route must answer.
for (const x of input.xpubs) {
  const key = ["utilsXpub", x.xpub, x.role, x.index].join("|");
  await get(key, `utils/addresses/xpub/${x.xpub}/${x.role}/${x.index}`);
  out[key].sdk = deriveAddress(x.xpub, x.role, x.index, "mainnet").address;
}
await callAs("utilsTxsEvaluate", "utilsTxsEvaluate", input.submit.cbor);

// Submission, then the mempool holding it (the chain stands still): read
// at once, then until it shows (how long a client waits for it).
await callAs("mempool|before", "mempool");
await callAs("txSubmit", "txSubmit", input.submit.cbor);
await callAs("mempoolTx|at once", "mempoolTx", input.submit.hash);
const submitted = Date.now();
for (let i = 0; i < 50; i++) {
  await call("mempoolTx", input.submit.hash);
  if (out["mempoolTx|" + input.submit.hash].ok) break;
  await new Promise((r) => setTimeout(r, 100));
}
out.mempoolLagMs = { ok: Date.now() - submitted };
await call("mempool");
await call("mempoolAll");
await call("mempoolByAddress", input.submit.address);
await call("mempoolByAddressAll", input.submit.address);
await callAs("txs|" + input.submit.hash + "|pending", "txs", input.submit.hash);

console.log(JSON.stringify(out, (_, v) => (typeof v === "bigint" ? v.toString() : v)));
