/**
 * @module Conformance of every /v3 answer to ae_mdw's own schemas (issue 28). Every operation of the route table
 * (src/api/mdw/rest/operations.ts) is called over a devnode chain with every transaction type, tokens, NFTs and
 * swaps, with real ids and the parameter variants whose answers differ in shape, and each answer is validated
 * against (a) the SDK's model of that operation's answer (its generated mappers carry ae_mdw's swagger: every
 * field, its type, whether it is required), where the SDK has the operation, and (b) the response schema our
 * /mdw/v3/api document states for it (ae_mdw's shapes from its OpenAPI files, for the operations the SDK lacks).
 * A drift from ae_mdw's shapes fails here even where no SDK method reads the field. Where ae_mdw's schema is
 * itself wrong (ae_mdw answers otherwise), EXCEPTIONS names the place and why (docs/api-v3.md, "Conformance").
 */
import { expect } from 'chai';
import { Ajv, type ValidateFunction } from 'ajv';
import { V3_OPERATIONS } from '../../../src/api/mdw/rest/operations.ts';
import { TX_TYPE_NAMES } from '../../../src/api/mdw/resources/tx-query.ts';
import type { Json } from '../../../src/chain/json.ts';
import { wrappedAe } from '../../support/aex9-truth.ts';
import { contractsOf } from '../../support/devnode-contracts.ts';
import { startV3, type V3UnderTest } from './harness.ts';
import { mapperViolations, sdkResponseMapper, summarize } from './sdk-mappers.ts';

type Obj = { [key: string]: Json };

/** Real ids of the chain under test, found through the API (the shapes are checked here, the contents elsewhere). */
interface Ids {
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
}

/**
 * CASES: the requests (under /mdw/v3) that exercise each operation of the route table, by operationId. A new
 * operation adds its case here: the first test fails, naming it, until it does.
 */
const CASES: Record<string, (ids: Ids) => readonly string[]> = {
  GetStatus: () => ['/status'],
  GetWealth: () => ['/wealth'],
  GetApi: () => ['/api'],
  GetKeyBlocks: () => ['/key-blocks', '/key-blocks?limit=100&direction=forward', '/key-blocks?scope=gen:1-5'],
  GetKeyBlock: ({ keyBlock }) => [`/key-blocks/${String(keyBlock.hash)}`, `/key-blocks/${String(keyBlock.height)}`],
  GetKeyBlockMicroBlocks: ({ keyBlock }) => [`/key-blocks/${String(keyBlock.hash)}/micro-blocks`],
  GetMicroBlock: ({ microBlock }) => [`/micro-blocks/${microBlock}`],
  GetMicroBlockTransactions: ({ microBlock }) => [`/micro-blocks/${microBlock}/transactions?limit=100`],
  GetTransactions: ({ account, contract, channel, oracle, name, txByType }) => [
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
    `/transactions?recipient_id=${account}&scope=gen:0-1000`,
    `/transactions?entrypoint=transfer&limit=20`,
    `/transactions?scope=transaction:${String(txByType.get('SpendTx')!.hash)}-${String(txByType.get('NameClaimTx')!.hash)}`,
  ],
  GetTransactionsCount: ({ account, microBlock }) => [
    '/transactions/count',
    '/transactions/count?tx_type=spend',
    '/transactions/count?type=contract_create',
    `/transactions/count?id=${account}`,
    '/transactions/count?scope=gen:1-20',
    `/transactions/count?mb_hash=${microBlock}`,
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
  GetContractCalls: ({ contract, account }) => [
    '/contracts/calls?limit=100',
    `/contracts/calls?contract_id=${contract}`,
    `/contracts/calls?caller_id=${account}`,
    '/contracts/calls?function=transfer',
  ],
  GetContractLogs: ({ token }) => [
    '/contracts/logs?limit=100',
    '/contracts/logs?limit=100&aexn-args=true',
    `/contracts/logs?contract_id=${token}&event=Transfer&aexn-args=true`,
  ],
  GetContract: ({ contract, token, collection }) => [contract, token, collection].map((c) => `/contracts/${c}`),
  GetContractLogsById: ({ token }) => [`/contracts/${token}/logs`, `/contracts/${token}/logs?aexn-args=true`],
  GetContractCallsById: ({ token }) => [`/contracts/${token}/calls?limit=100`],
  GetTransfers: ({ account }) => ['/transfers?limit=100', '/transfers?kind=reward', `/transfers?account=${account}`],
  GetAccountActivities: ({ account, token, holder, swap, nft, txByType }) => [
    `/accounts/${account}/activities?limit=100`,
    `/accounts/${account}/activities?type=transactions&owned_only=true`,
    `/accounts/${account}/activities?type=transfers`,
    `/accounts/${String((txByType.get('NameClaimTx')!.tx as Obj).name_id)}/activities?type=claims`,
    `/accounts/${token}/activities?type=contract`,
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
  ],
  GetAex9ContractAccountBalanceHistory: ({ token, holder }) => [`/aex9/${token}/balances/${holder}/history`],
  GetAex9AccountBalances: ({ holder }) => [`/accounts/${holder}/aex9/balances`],
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

/**
 * OPERATIONS: the route table's operations this chain answers: a hyperchain's routes answer ae_mdw's 400 on it
 * (hyperchain-guards.test.ts), and their answers are checked against the same schemas on a hyperchain
 * (hyperchain-sdk.test.ts).
 */
const OPERATIONS = V3_OPERATIONS.filter((op) => !op.path.startsWith('/hyperchain/'));

/** A place where ae_mdw's own schema (as the SDK carries it) is wrong: ae_mdw answers otherwise, as we do. */
interface Exception {
  /** the violations it explains */
  readonly violation: RegExp;
  /** the operations it applies to, if not every one */
  readonly operations?: readonly string[];
  /** the requests it applies to (a part of the path and query), if not all */
  readonly request?: string;
  readonly reason: string;
}

const BLOCKS = ['GetKeyBlocks', 'GetKeyBlock', 'GetKeyBlockMicroBlocks', 'GetMicroBlock'];

/** EXCEPTIONS: each is used by some answer (a stale one fails the last test); docs/api-v3.md says the same. */
const EXCEPTIONS: readonly Exception[] = [
  {
    violation: /\.flags: missing \(required\)$/,
    operations: BLOCKS,
    reason:
      "ae_mdw's KeyBlockExtended and MicroBlockExtended require `flags`, but ae_mdw writes the node's client " +
      'serialization of a header (aec_headers:serialize_for_client), which has it only from node 7.3: the devnode ' +
      'shows it on Arcus blocks only, and these chains run Ceres',
  },
  {
    violation: /\.(encoded_tx|state_hash): "(tx|st)_[^"]*" does not match \/\^(tx|st)_\\w\+\$\/$/,
    reason:
      "ae_mdw's pattern `^tx_\\w+$` (`^st_\\w+$`) cannot match a base64 encoding (`+`, `/`, `=`), which is what " +
      'the node and ae_mdw write for transactions and channel state hashes',
  },
  {
    violation: /^\$(\.data\[\d+\])?\.(auction|revoke): null, not (Auction|NameTx)$/,
    operations: ['GetNames', 'GetName'],
    reason:
      'ae_mdw writes `auction: null` for a name not in auction and `revoke: null` for one never revoked (Names.render_v3); its schema does not allow null',
  },
  {
    violation: /^\$\.data\[\d+\]\.kind: "(fee_\w+|reward_oracle|accounts_\w+|contracts_lima)" is not one of its enum$/,
    operations: ['GetTransfers'],
    reason:
      "ae_mdw's Transfer lists only the reward kinds, but /transfers answers every internal transfer kind (its InternalTransferEvent lists them all)",
  },
  {
    violation: /^\$\.data\[\d+\]\.type: "\w+Event" is not one of its enum$/,
    operations: ['GetAccountActivities'],
    reason:
      "ae_mdw's Activity lists only the transactions' events, but its activities are also internal transfers, name claims, token transfers and swaps",
  },
  {
    violation:
      /^\$\.data\[\d+\]\.payload\.(kind: "accounts_\w+" is not one of its enum|ref_tx_hash: null, not String)$/,
    operations: ['GetAccountActivities'],
    reason:
      "ae_mdw's activities spec lists the genesis balances' kind (`accounts_roma`, height 0), which the SDK's model of an internal transfer lacks; a key-block level transfer has no causing transaction, so `ref_tx_hash` is null",
  },
  {
    violation: /^\$\.amount: null, not BigInt$/,
    operations: ['GetAex9ContractAccountBalance'],
    reason:
      'an account that never held the token has no balance: `amount: null` (docs/api-v3.md), where the schema requires a number',
  },
  {
    violation: /^\$\.data\[\d+\]\.(block_hash|contract_id): "(mh|ct)_\w+", not Number$/,
    operations: ['GetAex9ContractBalances', 'GetAex9AccountBalances'],
    reason: "ae_mdw's schema types these ids as integers; ae_mdw writes them encoded, as its own examples show",
  },
  {
    violation: /^\$\.data\[\d+\]\.args\[\d+\]: .*, not String$/,
    operations: ['GetContractLogs'],
    request: 'aexn-args=true',
    reason:
      "ae_mdw's ContractLog has string args, but with `aexn-args=true` it writes a standard event's args as ids and integers",
  },
  {
    violation: /^\$\.data\[\d+\]\.block_hash: "kh_\w+" does not match \/\^mh_/,
    operations: ['GetAccountActivities'],
    reason:
      "ae_mdw's Activity has a micro block's hash, but an activity of a key block (a block reward) carries the key block's (Activities.render)",
  },
  {
    violation: /^\$\.data\[\d+\]\.payload\.tx\.(type|version): missing \(required\)$/,
    operations: ['GetAccountActivities'],
    request: 'type=claims',
    reason:
      "ae_mdw's Activity payload is a transaction's, but a NameClaimEvent's `tx` is the claim's fields alone, without type and version (Activities.render_payload: the tx module's for_client)",
  },
  {
    violation: /^\$\.data\[\d+\]\.payload\.tx\.(fee|type|version): missing \(required\)$/,
    operations: ['GetAccountActivities'],
    request: 'type=swaps',
    reason:
      "ae_mdw's Activity payload has a transaction's `tx`, but a DexSwapEvent's `tx` is a whole Transaction (block, hash, and the transaction under its own `tx`), as ae_mdw writes it (Activities.render_payload)",
  },
  {
    violation: /^\$(\.data\[\d+\])?\.base_url: null, not String$/,
    operations: ['GetSortedAex141Contracts', 'GetAex141ByContract'],
    reason:
      "a collection's meta info may have no base URL: ae_mdw writes null, as its own example shows, though its schema says string",
  },
  {
    violation: /^\$: \{"data":"?\d+"?\}, not Number$/,
    operations: ['GetTransactionsCount'],
    request: 'mb_hash=',
    reason: 'ae_mdw answers `{"data": n}` for one micro block (TxController.count), its spec a bare integer',
  },
  {
    violation: /^\$: "?\d+"?, not \w+$/,
    operations: ['GetAccountTransactionsCount'],
    request: 'type',
    reason:
      'ae_mdw answers a bare integer when `type` or `type_group` is given (TxController.count_id), its spec only the object of counts per type and field',
  },
];

/** Lists that may be empty on this chain, with why (every other list must show an item, or its check is empty). */
const MAY_BE_EMPTY: Readonly<Record<string, string>> = {
  GetPendingTransactions: 'the devnode mines every transaction it accepts at once: its mempool is empty',
};

/** route is a path with its parameters' names dropped: `/names/{id}` is `/names/*`. */
const routeOf = (path: string): RegExp => new RegExp(`^${path.replace(/\{[^}]+\}/g, '[^/]+').replace(/[.]/g, '\\.')}$`);

describe("/v3 conformance: every operation's answers against ae_mdw's schemas (the SDK's models) and /v3/api", function () {
  this.timeout(600_000);
  let v3: V3UnderTest;
  let ids: Ids;
  let document: { paths: Record<string, { get: { responses: Record<string, unknown> } }> };
  const ajv = new Ajv({ strict: false, allErrors: true });
  const usedExceptions = new Set<Exception>();
  /** the operations whose every answer was checked (exceptions are judged stale only after all of them) */
  const checked = new Set<string>();

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

  before(async () => {
    v3 = await startV3(300, 'v3-conformance', (devnode) => ({
      DEX_FACTORY: contractsOf(devnode, 'factory')[0]!,
      DEX_WRAPPED_AE: wrappedAe(devnode.chain),
    }));
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
    ids = {
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
    };
    const api = await v3.get('/mdw/v3/api');
    document = JSON.parse(api.text);
    ajv.addSchema({ $id: 'doc', components: (document as unknown as { components: unknown }).components });
  });
  after(async () => {
    await v3?.close();
  });

  it('has a case for every operation of the route table, and none for an operation it lacks', () => {
    const missing = OPERATIONS.filter((op) => CASES[op.operationId] === undefined).map(
      (op) => `${op.operationId} (/v3${op.path}): add its requests to CASES in test/integration/v3/conformance.test.ts`,
    );
    expect(missing, 'operations without a conformance case').to.deep.equal([]);
    const known = new Set(OPERATIONS.map((op) => op.operationId));
    expect(Object.keys(CASES).filter((id) => !known.has(id))).to.deep.equal([]);
  });

  it('the SDK knows the operations it is expected to know (a mapping mistake would skip its check silently)', () => {
    const withModel = OPERATIONS.filter((op) => sdkResponseMapper(`/v3${op.path}`) !== undefined);
    expect(withModel.length).to.be.at.least(60);
  });

  // HCVoteTx is a hyperchain's (the devnode's --hc-votes), and the SDK's models know none
  it("runs over a chain with every transaction type the devnode makes (all but a hyperchain's HCVoteTx)", () => {
    expect([...TX_TYPE_NAMES.values()].filter((type) => !ids.txByType.has(type))).to.deep.equal(['HCVoteTx']);
  });

  it('finds a drift: a field missing, of another type, or null where the schemas allow none', async () => {
    const request = `/transactions/${String(ids.txByType.get('SpendTx')!.hash)}`;
    const answer = JSON.parse((await v3.get(`/mdw/v3${request}`)).text) as Obj;
    const drifted: Obj = { ...answer, micro_index: 'one', signatures: null, tx: { ...(answer.tx as Obj), fee: true } };
    delete drifted.block_hash;
    const model = sdkResponseMapper('/v3/transactions/{hash}')!;
    const unexcused = (value: Obj): string[] =>
      mapperViolations(model, value).filter((v) => !excused('GetTransaction', request, v));
    expect(unexcused(answer)).to.deep.equal([]);
    expect(unexcused(drifted)).to.have.members([
      '$.block_hash: missing (required)',
      '$.micro_index: "one", not Number',
      '$.signatures: null, not Sequence',
      '$.tx.fee: true, not BigInt',
    ]);
    const validate = documentValidator('/transactions/{hash}');
    expect(validate(answer)).to.equal(true);
    expect(validate(drifted)).to.equal(false);
  });

  for (const op of OPERATIONS) {
    it(`${op.operationId}: /v3${op.path}`, async function () {
      const requests = CASES[op.operationId]?.(ids);
      if (!requests) this.skip(); // the first test names it
      const model = sdkResponseMapper(`/v3${op.path}`);
      const validate = documentValidator(op.path);
      let items = 0;
      for (const request of requests) {
        const path = request.split('?')[0]!;
        expect(routeOf(op.path).test(path), `${request} is a request of ${op.path}`).to.equal(true);
        for (const intAsString of [false, true]) {
          const url = intAsString ? `${request}${request.includes('?') ? '&' : '?'}int-as-string=true` : request;
          const res = await v3.get(`/mdw/v3${url}`);
          expect(res.status, `${url}: ${res.text.slice(0, 300)}`).to.equal(200);
          if (model) {
            const violations = mapperViolations(model, res.body, { intAsString }).filter(
              (violation) => !excused(op.operationId, url, violation),
            );
            const against = `${url} against the SDK's ${model.type.className ?? model.type.name}`;
            expect(violations.length, `${against}:\n  ${summarize(violations).join('\n  ')}\n`).to.equal(0);
          }
          if (intAsString) continue;
          expect(validate(JSON.parse(res.text)), `${url} against /v3/api: ${ajv.errorsText(validate.errors)}`).to.equal(
            true,
          );
          const body = res.body as { data?: unknown };
          items += Array.isArray(body.data) ? body.data.length : 1;
        }
      }
      if (!(op.operationId in MAY_BE_EMPTY)) expect(items, `${op.operationId}: some answer has an item`).to.be.above(0);
      checked.add(op.operationId);
    });
  }

  it("answers a malformed id of every operation that takes one with ae_mdw's error, as both schemas state it", async () => {
    for (const op of OPERATIONS.filter((o) => o.path.includes('{'))) {
      const request = op.path.replace(/\{[^}]+\}/g, 'x_bad');
      const res = await v3.get(`/mdw/v3${request}`);
      // a name's lists take a plain name, as ae_mdw's do: `x_bad.chain`, which has none
      const expected = op.path.startsWith('/names/') && op.path.split('/').length > 3 ? [200, 400, 404] : [400, 404];
      expect(expected, `${request}: ${res.status} ${res.text}`).to.include(res.status);
      const model = sdkResponseMapper(`/v3${op.path}`, res.status);
      if (model) expect(mapperViolations(model, res.body), request).to.deep.equal([]);
      const validate = documentValidator(op.path, String(res.status));
      expect(validate(JSON.parse(res.text)), `${request}: ${ajv.errorsText(validate.errors)}`).to.equal(true);
    }
  });

  it('used every exception it names (a stale one is removed, with its note in docs/api-v3.md)', function () {
    if (checked.size < OPERATIONS.length) this.skip(); // an operation failed or was not run: not judged
    expect(EXCEPTIONS.filter((e) => !usedExceptions.has(e)).map((e) => e.reason)).to.deep.equal([]);
  });

  /** documentValidator validates an answer of the operation at `path` against its schema in /v3/api (200 unless `status`). */
  function documentValidator(path: string, status = '200'): ValidateFunction {
    const response = document.paths[path]?.get.responses[status] as
      { content: { 'application/json': { schema: unknown } } } | undefined;
    expect(response, `/v3/api documents ${path} answering ${status}`).not.to.equal(undefined);
    const schema = JSON.stringify(response!.content['application/json'].schema);
    return ajv.compile(JSON.parse(schema.replaceAll('"#/components', '"doc#/components')));
  }

  /** excused tells whether an exception explains `violation` of a request of `operationId` (and records its use). */
  function excused(operationId: string, request: string, violation: string): boolean {
    const exception = EXCEPTIONS.find(
      (e) =>
        (e.operations === undefined || e.operations.includes(operationId)) &&
        (e.request === undefined || request.includes(e.request)) &&
        e.violation.test(violation),
    );
    if (exception) usedExceptions.add(exception);
    return exception !== undefined;
  }
});
