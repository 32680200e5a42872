/**
 * @module The requests that exercise every operation of the /v3 route table over the conformance chain, with real ids
 * of it: conformance-suite.ts checks their answers against ae_mdw's schemas, route-plans-suite.ts their statements'
 * plans, both over the one chain route-cases.test.ts starts.
 */
import { expect } from 'chai';
import { TX_TYPE_NAMES } from '../../../src/api/mdw/resources/tx-query.ts';
import type { Json } from '../../../src/chain/json.ts';
import { wrappedAe } from '../../support/aex9-truth.ts';
import { contractsOf } from '../../support/devnode-contracts.ts';
import { startV3, type V3UnderTest } from './harness.ts';
import { encode, Encoding } from '@aeternity/aepp-sdk';

/** NEVER_HELD is an account of the chain's no key (32 bytes of 9s): it never held anything. */
const NEVER_HELD = encode(Buffer.alloc(32, 9), Encoding.AccountAddress);

type Obj = { [key: string]: Json };

/** Real ids of the chain under test, found through the API (the shapes are checked here, the contents elsewhere). */
export interface Ids {
  readonly keyBlock: Obj;
  readonly microBlock: string;
  /** one transaction of each type the chain has, by the node's type name */
  readonly txByType: ReadonlyMap<string, Obj>;
  readonly account: string;
  readonly name: string;
  readonly auction: string;
  readonly oracle: string;
  readonly channel: string;
  readonly contract: string;
  readonly token: string;
  readonly holder: string;
  readonly collection: string;
  readonly nft: { readonly owner: string; readonly tokenId: string; readonly templateId: string };
  readonly swap: Obj;
  readonly pointee: string;
  /** a contract whose calls made internal calls (Chain.spend, Call.amount) */
  readonly payer: string;
}

/**
 * CASES: the requests (under /mdw/v3) that exercise each operation of the route table, by operationId. A new
 * operation adds its case here: conformance-suite.ts's first test fails, naming it, until it does (and
 * route-plans-suite.ts explains the statements of each case).
 */
export const CASES: Record<string, (ids: Ids) => readonly string[]> = {
  GetStatus: () => ['/status'],
  GetWealth: () => ['/wealth'],
  GetApi: () => ['/api'],
  GetKeyBlocks: () => ['/key-blocks', '/key-blocks?limit=100&direction=forward', '/key-blocks?scope=gen:1-5'],
  GetKeyBlock: ({ keyBlock }) => [`/key-blocks/${String(keyBlock.hash)}`, `/key-blocks/${String(keyBlock.height)}`],
  GetKeyBlockMicroBlocks: ({ keyBlock }) => [`/key-blocks/${String(keyBlock.hash)}/micro-blocks`],
  GetMicroBlock: ({ microBlock }) => [`/micro-blocks/${microBlock}`],
  GetMicroBlockTransactions: ({ microBlock }) => [`/micro-blocks/${microBlock}/transactions?limit=100`],
  GetTransactions: ({ account, contract, channel, oracle, name, txByType, holder }) => [
    '/transactions?limit=100',
    '/transactions?limit=100&expand=true',
    ...[...TX_TYPE_NAMES.keys()].map((type) => `/transactions?type=${type}&limit=5`),
    ...['channel', 'contract', 'ga', 'name', 'oracle', 'paying_for', 'spend'].map(
      (group) => `/transactions?type_group=${group}&limit=20`,
    ),
    `/transactions?account=${account}&limit=100`,
    `/transactions?contract=${contract}`,
    `/transactions?channel=${channel}`,
    `/transactions?oracle=${oracle}`,
    `/transactions?name=${name}`,
    `/transactions?sender_id=${account}&direction=forward`,
    `/transactions?sender_id=${account}&recipient_id=${account}`,
    `/transactions?recipient_id=${holder}&sender_id=${account}&type=spend&direction=forward&scope=gen:1-1000`,
    `/transactions?recipient_id=${account}&scope=gen:0-1000`,
    `/transactions?entrypoint=transfer&limit=20`,
    `/transactions?scope=transaction:${String(txByType.get('SpendTx')!.hash)}-${String(txByType.get('NameClaimTx')!.hash)}`,
  ],
  GetTransactionsCount: ({ account, microBlock, holder }) => [
    '/transactions/count',
    '/transactions/count?tx_type=spend',
    '/transactions/count?type=contract_create',
    `/transactions/count?id=${account}`,
    '/transactions/count?scope=gen:1-20',
    `/transactions/count?mb_hash=${microBlock}`,
    `/transactions/count?sender_id=${account}&recipient_id=${account}&scope=gen:1-20`,
    `/transactions/count?sender_id=${account}&recipient_id=${holder}`,
  ],
  GetPendingTransactions: () => ['/transactions/pending'],
  GetPendingTransactionsCount: () => ['/transactions/pending/count'],
  GetTransaction: ({ txByType }) => [...txByType.values()].map((t) => `/transactions/${String(t.hash)}`),
  GetAccountTransactionsCount: ({ account, contract, oracle, channel }) => [
    ...[account, contract, oracle, channel].map((id) => `/accounts/${id}/transactions/count`),
    `/accounts/${account}/transactions/count?type=spend`,
    `/accounts/${account}/transactions/count?type_group=name`,
  ],
  GetNames: ({ account }) => [
    '/names?limit=100',
    '/names?state=inactive&limit=100',
    '/names?by=name&limit=100',
    '/names?by=deactivation&limit=100',
    `/names?owned_by=${account}`,
    '/names?by=name&prefix=a',
  ],
  GetNamesCount: ({ account }) => ['/names/count', `/names/count?owned_by=${account}`],
  GetNamesAuctions: () => ['/names/auctions?limit=100', '/names/auctions?by=expiration&direction=forward'],
  GetNameAuction: ({ auction }) => [`/names/auctions/${auction}`],
  GetNameAuctionClaims: ({ auction }) => [`/names/auctions/${auction}/claims`],
  // a name only in auction is answered 404, as ae_mdw does (explorer-gaps.test.ts); GetNameAuction covers it
  GetName: ({ name, txByType }) => [
    `/names/${name}`,
    `/names/${String((txByType.get('NameRevokeTx')?.tx as Obj).name_id)}`,
  ],
  GetNameClaims: ({ name }) => [`/names/${name}/claims`],
  GetNameTransfers: ({ txByType }) => [
    `/names/${String((txByType.get('NameTransferTx')!.tx as Obj).name_id)}/transfers`,
  ],
  GetNameHistory: ({ name, txByType }) => [
    `/names/${name}/history?limit=100`,
    `/names/${String((txByType.get('NameRevokeTx')!.tx as Obj).name_id)}/history`,
    `/names/${String((txByType.get('NameTransferTx')!.tx as Obj).name_id)}/history?direction=forward`,
  ],
  GetNameUpdates: ({ txByType }) => [`/names/${String((txByType.get('NameUpdateTx')!.tx as Obj).name_id)}/updates`],
  GetAccountNameClaims: ({ txByType }) => [
    `/accounts/${String((txByType.get('NameClaimTx')!.tx as Obj).account_id)}/names/claims`,
  ],
  GetAccountPointees: ({ pointee }) => [`/accounts/${pointee}/names/pointees`],
  GetOracles: () => ['/oracles?limit=100', '/oracles?state=active', '/oracles?state=inactive'],
  GetOracle: ({ oracle }) => [`/oracles/${oracle}`],
  GetOracleQueries: ({ oracle }) => [`/oracles/${oracle}/queries?limit=100`],
  GetOracleResponses: ({ oracle }) => [`/oracles/${oracle}/responses?limit=100`],
  GetOracleExtends: ({ oracle }) => [`/oracles/${oracle}/extends?limit=100`],
  GetChannels: () => ['/channels?limit=100', '/channels?state=active', '/channels?state=inactive'],
  GetChannel: ({ channel }) => [`/channels/${channel}`],
  GetChannelUpdates: ({ channel }) => [`/channels/${channel}/updates?limit=100`],
  GetContracts: () => ['/contracts?limit=100'],
  GetContractCalls: ({ contract, token }) => [
    '/contracts/calls?limit=100',
    `/contracts/calls?contract_id=${contract}`,
    `/contracts/calls?contract=${token}&direction=forward`,
    '/contracts/calls?function=Chain.spend',
  ],
  GetContractCallTransactions: ({ contract, account }) => [
    '/contracts/call-transactions?limit=100',
    `/contracts/call-transactions?contract_id=${contract}`,
    `/contracts/call-transactions?caller_id=${account}`,
    '/contracts/call-transactions?function=transfer',
  ],
  GetContractLogs: ({ token }) => [
    '/contracts/logs?limit=100',
    '/contracts/logs?limit=100&aexn-args=true',
    `/contracts/logs?contract_id=${token}&event=Transfer&aexn-args=true`,
  ],
  GetContract: ({ contract, token, collection }) => [contract, token, collection].map((c) => `/contracts/${c}`),
  GetContractLogsById: ({ token }) => [`/contracts/${token}/logs`, `/contracts/${token}/logs?aexn-args=true`],
  GetContractCallsById: ({ payer }) => [`/contracts/${payer}/calls?limit=100`],
  GetContractCallTransactionsById: ({ token }) => [`/contracts/${token}/call-transactions?limit=100`],
  GetTransfers: ({ account }) => ['/transfers?limit=100', '/transfers?kind=reward', `/transfers?account=${account}`],
  GetAccountActivities: ({ account, token, holder, swap, nft, txByType, payer }) => [
    `/accounts/${account}/activities?limit=100`,
    `/accounts/${account}/activities?type=transactions&owned_only=true`,
    `/accounts/${account}/activities?type=transfers`,
    `/accounts/${String((txByType.get('NameClaimTx')!.tx as Obj).name_id)}/activities?type=claims`,
    `/accounts/${token}/activities?type=contract`,
    `/accounts/${payer}/activities?type=contract`,
    `/accounts/${holder}/activities?type=aex9`,
    `/accounts/${nft.owner}/activities?type=aex141`,
    `/accounts/${nft.owner}/activities?type=aexn`,
    `/accounts/${String(swap.caller)}/activities?type=swaps`,
  ],
  GetDexSwaps: () => ['/dex/swaps?limit=100'],
  GetDexSwapsByContractId: ({ swap }) => [`/dex/${String(swap.from_contract)}/swaps`],
  GetDebugDexSwaps: ({ swap }) => [`/debug/dex/${String(swap.to_contract)}/swaps`],
  GetAccountDexSwaps: ({ swap }) => [`/accounts/${String(swap.caller)}/dex/swaps`],
  GetSortedAex9Tokens: () => ['/aex9', '/aex9?by=name', '/aex9?by=symbol', '/aex9?by=creation&direction=forward'],
  GetAex9TokensCount: () => ['/aex9/count'],
  GetAex9ByContract: ({ token }) => [`/aex9/${token}`],
  GetAex9ContractBalances: ({ token, keyBlock }) => [
    `/aex9/${token}/balances?limit=100`,
    `/aex9/${token}/balances?by=amount`,
    `/aex9/${token}/balances?height=${String(keyBlock.height)}`,
  ],
  GetAex9ContractAccountBalance: ({ token, holder, keyBlock, account }) => [
    `/aex9/${token}/balances/${holder}`,
    `/aex9/${token}/balances/${holder}?height=${String(keyBlock.height)}`,
    `/aex9/${token}/balances/${account}`,
    // an account that never held it (none ever had this key): its `amount: null`
    `/aex9/${token}/balances/${NEVER_HELD}`,
  ],
  GetAex9ContractAccountBalanceHistory: ({ token, holder }) => [`/aex9/${token}/balances/${holder}/history`],
  GetAex9AccountBalances: ({ holder }) => [`/accounts/${holder}/aex9/balances`],
  GetAccountAeBalance: ({ account, keyBlock }) => [
    `/accounts/${account}/balance`,
    `/accounts/${account}/balance?height=${String(keyBlock.height)}`,
    `/accounts/${account}/balance?hash=${String(keyBlock.hash)}`,
    `/accounts/${account}/balance?time=${String(Math.floor(Number(keyBlock.time) / 1000))}`,
  ],
  GetAccountAeBalanceHistory: ({ account, keyBlock }) => [
    `/accounts/${account}/balance/history`,
    `/accounts/${account}/balance/history?direction=forward&limit=3`,
    `/accounts/${account}/balance/history?scope=gen:${String(keyBlock.height)}-0`,
  ],
  GetAex9ContractTransfers: ({ token, holder }) => [
    `/aex9/${token}/transfers?sender=${holder}`,
    `/aex9/${token}/transfers?recipient=${holder}`,
    `/aex9/${token}/transfers?account=${holder}`,
  ],
  GetSortedAex141Contracts: () => ['/aex141', '/aex141?by=name', '/aex141?by=symbol&direction=forward'],
  GetAex141Count: () => ['/aex141/count'],
  GetAex141Transfers: ({ nft }) => ['/aex141/transfers', `/aex141/transfers?to=${nft.owner}`],
  GetAex141ByContract: ({ collection }) => [`/aex141/${collection}`],
  GetAex141ContractTokens: ({ collection }) => [`/aex141/${collection}/tokens?limit=100`],
  GetAex141TokenOwner: ({ collection, nft }) => [`/aex141/${collection}/tokens/${nft.tokenId}`],
  GetAex141ContractTemplates: ({ collection }) => [`/aex141/${collection}/templates`],
  GetAex141TemplateTokens: ({ collection, nft }) => [`/aex141/${collection}/templates/${nft.templateId}/tokens`],
  GetAex141ContractTransfers: ({ collection, nft }) => [
    `/aex141/${collection}/transfers`,
    `/aex141/${collection}/transfers?from=${nft.owner}`,
  ],
  GetAex141OwnedTokens: ({ nft, collection }) => [
    `/accounts/${nft.owner}/aex141/tokens`,
    `/accounts/${nft.owner}/aex141/tokens?contract=${collection}`,
  ],
  GetStats: () => ['/stats'],
  GetDeltaStats: () => ['/stats/delta?limit=100'],
  GetTotalStats: () => ['/stats/total?limit=100'],
  GetMinerStats: () => ['/stats/miners'],
  GetTopMinerStats: () => ['/stats/miners/top', '/stats/miners/top?interval_by=week'],
  GetTopMiners24hs: () => ['/stats/miners/top-24h'],
  GetTransactionsStats: () => ['/stats/transactions', '/stats/transactions?tx_type=spend&interval_by=month'],
  GetTotalTransactionsStats: () => ['/stats/transactions/total'],
  GetBlocksStats: () => ['/stats/blocks', '/stats/blocks?type=key'],
  GetNamesStats: () => ['/stats/names'],
  GetContractsStats: () => ['/stats/contracts'],
  GetAex9TransfersStats: () => ['/stats/aex9-transfers'],
  GetTotalAccountsStats: () => ['/stats/total-accounts'],
  GetActiveAccountsStats: () => ['/stats/active-accounts'],
  GetDifficultyStats: () => ['/stats/difficulty'],
  GetHashrateStats: () => ['/stats/hashrate'],
};

/** The cases' chain and its ids, as route-cases.test.ts's `before` sets them for the suites that read them. */
export interface CasesChain {
  v3: V3UnderTest;
  ids: Ids;
}

/** startCasesChain starts the chain the cases run over: every transaction type, tokens, NFTs and the DEX's swaps. */
export function startCasesChain(name: string): Promise<V3UnderTest> {
  return startV3(300, name, (devnode) => ({
    DEX_FACTORY: contractsOf(devnode, 'factory')[0]!,
    DEX_WRAPPED_AE: wrappedAe(devnode.chain),
  }));
}

/** findIds finds the chain's ids the cases name, through the API. */
export async function findIds(v3: V3UnderTest): Promise<Ids> {
  const data = async (path: string): Promise<Obj[]> => {
    const res = await v3.get(`/mdw/v3${path}`);
    expect(res.status, `${path}: ${res.text}`).to.equal(200);
    return (res.body as { data: Obj[] }).data;
  };
  const first = async (path: string): Promise<Obj> => {
    const [item] = await data(path);
    expect(item, `${path}: the chain has one`).not.to.equal(undefined);
    return item!;
  };
  const txByType = new Map<string, Obj>();
  for (const [snake, type] of TX_TYPE_NAMES) {
    const [tx] = await data(`/transactions?type=${snake}&limit=1`);
    if (tx) txByType.set(type, tx);
  }
  const spend = txByType.get('SpendTx')!.tx as Obj;
  const keyBlocks = await data('/key-blocks?limit=100');
  const keyBlock = keyBlocks.find((k) => Number(k.transactions_count) > 0)!;
  const [microBlock] = await data(`/key-blocks/${String(keyBlock.hash)}/micro-blocks`);
  const pointers = await data('/transactions?type=name_update&limit=100');
  const pointee = pointers
    .flatMap((t) => ((t.tx as Obj).pointers as Obj[]).map((p) => String(p.id)))
    .find((id) => id.startsWith('ak_'))!;
  const collection = contractsOf(v3.devnode, 'aex141')[0]!;
  const templated = await first(`/aex141/${collection}/templates`);
  const owned = await first(`/aex141/${collection}/tokens`);
  const token = contractsOf(v3.devnode, 'aex9')[0]!;
  return {
    keyBlock,
    microBlock: String(microBlock!.hash),
    txByType,
    account: String(spend.sender_id),
    name: String((await first('/names?state=active')).name),
    auction: String((await first('/names/auctions')).name),
    oracle: String((await first('/oracles')).oracle),
    channel: String((await first('/channels')).channel),
    contract: String((txByType.get('ContractCreateTx')!.tx as Obj).contract_id),
    token,
    holder: String((await first(`/aex9/${token}/balances`)).account_id),
    collection,
    nft: {
      owner: String(owned.owner_id),
      tokenId: String(owned.token_id),
      templateId: String(templated.template_id),
    },
    swap: await first('/dex/swaps'),
    pointee,
    payer: String((await first('/contracts/calls')).contract_id),
  };
}
