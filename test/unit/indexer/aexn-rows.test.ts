import { expect } from 'chai';
import { encode } from '../../../src/chain/encoding.ts';
import type { Json } from '../../../src/chain/json.ts';
import { aex9Event, aexnRows, emittedLogs, type EmittedLog } from '../../../src/indexer/rows/aexn-rows.ts';
import { readMeta } from '../../../src/indexer/contracts/aexn-detector.ts';
import { readResults } from '../../../src/node/dry-run.ts';
import { eventTopic } from '../../../src/indexer/rows/call-events.ts';
import type { FetchedGeneration } from '../../../src/indexer/rows/rows.ts';
import { snakeTxType } from '../../../src/shapes/v3/render-aex9.ts';

const key = (byte: number): bigint => BigInt(`0x${byte.toString(16).padStart(2, '0').repeat(32)}`);
const ak = (byte: number): string => encode('ak', Buffer.alloc(32, byte));
const TOKEN = encode('ct', Buffer.alloc(32, 9));
const WAE = encode('ct', Buffer.alloc(32, 8));
const at = { height: 5, microIndex: 1, txIndex: 2, txHash: 'th_x', logIdx: 0 };
const log = (address: string, name: string, ...args: bigint[]): EmittedLog => ({
  ...at,
  address,
  topics: [eventTopic(name), ...args],
});

describe('AEX-9 events from call logs', () => {
  it('reads Transfer, Mint, Burn and Swap as moves between accounts, amounts exact', () => {
    const big = 10n ** 40n + 7n;
    expect(aex9Event(log(TOKEN, 'Transfer', key(1), key(2), big))).to.deep.equal({
      ...at,
      contractId: TOKEN,
      kind: 'transfer',
      from: ak(1),
      to: ak(2),
      amount: big.toString(),
    });
    expect(aex9Event(log(TOKEN, 'Mint', key(3), 5n))).to.include({ kind: 'mint', from: null, to: ak(3) });
    expect(aex9Event(log(TOKEN, 'Burn', key(3), 5n))).to.include({ kind: 'burn', from: ak(3), to: null });
    expect(aex9Event(log(TOKEN, 'Swap', key(3), 5n))).to.include({ kind: 'swap', from: ak(3), to: null });
  });

  it('reads Deposit and Withdrawal of any emitter (the writer keeps those of wrapped AE), and ignores other events and shapes', () => {
    expect(aex9Event(log(WAE, 'Deposit', key(1), 9n))).to.include({ kind: 'deposit', to: ak(1) });
    expect(aex9Event(log(WAE, 'Withdrawal', key(1), 9n))).to.include({ kind: 'withdrawal', from: ak(1) });
    expect(aex9Event(log(TOKEN, 'Allowance', key(1), key(2), 9n))).to.equal(undefined);
    // an AEX-141 style Transfer with a data payload still has three topics; a wrong arity is no AEX-9 event
    expect(aex9Event(log(TOKEN, 'Transfer', key(1), key(2)))).to.equal(undefined);
    expect(aex9Event(log(TOKEN, 'Mint', key(1), 9n, 1n))).to.equal(undefined);
    expect(aex9Event(log(TOKEN, 'Mint', 2n ** 256n, 9n))).to.equal(undefined);
  });

  it('numbers a call’s events in emission order (the node lists them newest first)', () => {
    const entry = (n: bigint): { address: string; topics: bigint[]; data: string } => ({
      address: TOKEN,
      topics: [eventTopic('Mint'), key(1), n],
      data: 'cb_Xfbg4g==',
    });
    const gen = {
      height: 7,
      keyBlock: {},
      continuesAt: 2,
      microBlocks: [{ header: { hash: 'mh_x' }, transactions: [{ hash: 'th_a' }, { hash: 'th_b' }] }],
      callInfos: new Map([['th_b', { log: [entry(3n), entry(2n), entry(1n)] }]]),
      decodedCalls: new Map(),
    } as unknown as FetchedGeneration;
    const logs = emittedLogs(gen);
    expect(logs.map((l) => [l.microIndex, l.txIndex, l.logIdx, l.topics[2]])).to.deep.equal([
      [2, 1, 0, 1n],
      [2, 1, 1, 2n],
      [2, 1, 2, 3n],
    ]);
    expect(aexnRows(gen).aex9Logs.map((l) => l.amount)).to.deep.equal(['1', '2', '3']);
  });
});

describe('AEX-N meta info and dry-run results', () => {
  it('reads AEX-9 meta info, and gives the placeholder for what is not it', () => {
    const aex9 = { type: 'aex9', extensions: [] } as const;
    expect(readMeta(aex9, ['Gold', 'GLD', 18n])).to.deep.include({
      name: 'Gold',
      symbol: 'GLD',
      decimals: 18,
      metaInvalid: false,
    });
    expect(readMeta(aex9, ['Gold', 'GLD', -1n]).metaInvalid).to.equal(true);
    expect(readMeta(aex9, undefined)).to.deep.include({ name: 'format_error', metaInvalid: true });
  });

  it('reads AEX-141 meta info: base URL option and metadata type by constructor', () => {
    const aex141 = { type: 'aex141', extensions: [], metadataTypes: ['url', 'object_id', 'map'] } as const;
    expect(readMeta(aex141, ['Cats', 'CAT', { 1: ['https://x'] }, { 2: [] }])).to.deep.include({
      baseUrl: 'https://x',
      metadataType: 'map',
      metaInvalid: false,
    });
    expect(readMeta(aex141, ['Cats', 'CAT', { 0: [] }, { 0: [] }])).to.deep.include({
      baseUrl: null,
      metadataType: 'url',
    });
    expect(readMeta(aex141, ['Cats', 'CAT', { 0: [] }, { 5: [] }]).metaInvalid).to.equal(true);
  });

  it("reads the node's DryRunResults: returned values, reverts and errors", () => {
    const body: Json = {
      results: [
        { result: 'ok', call_obj: { return_type: 'ok', return_value: 'cb_AA==' } },
        { result: 'ok', call_obj: { return_type: 'revert', return_value: 'cb_BB==' } },
        { result: 'error', reason: 'contract_does_not_exist' },
      ],
    };
    expect(readResults(body, 3)).to.deep.equal([
      { ok: true, value: 'cb_AA==' },
      { ok: false, reason: 'revert' },
      { ok: false, reason: 'contract_does_not_exist' },
    ]);
    expect(() => readResults(body, 2)).to.throw('3 results for 2 calls');
  });

  it('writes transaction types as ae_mdw prints them', () => {
    expect(['ContractCallTx', 'ContractCreateTx', 'GAMetaTx', 'PayingForTx'].map(snakeTxType)).to.deep.equal([
      'contract_call_tx',
      'contract_create_tx',
      'ga_meta_tx',
      'paying_for_tx',
    ]);
  });
});
