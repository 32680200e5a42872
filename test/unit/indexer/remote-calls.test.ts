/** @module The contracts a batch's calls reached through another, as the writer writes them (migration 1154). */
import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import { encode } from '../../../src/chain/encoding.ts';
import { remoteCalls } from '../../../src/indexer/rows/remote-calls.ts';
import type { Json } from '../../../src/chain/json.ts';
import type { ContractCallRow } from '../../../src/indexer/rows/rows.ts';

const ct = (): string => encode('ct', randomBytes(32));
const [called, token, pair] = [ct(), ct(), ct()];

const call = (txIndex: number, log: Json | undefined, info = true): ContractCallRow => ({
  txHash: `th_${txIndex}`,
  height: 7,
  microIndex: 1,
  txIndex,
  contractId: called,
  callerId: encode('ak', randomBytes(32)),
  function: 'swap',
  arguments: null,
  callInfo: info ? (log === undefined ? { return_type: 'ok' } : { return_type: 'ok', log }) : null,
  callInfoPruned: !info,
  result: null,
  decodeError: null,
});
const entry = (address: Json): Json => ({ address, topics: [], data: 'cb_Xfbg4g==' });

describe('remoteCalls', () => {
  it("lists each other contract on the call's log once, at the call's position", () => {
    const log = [entry(token), entry(called), entry(pair), entry(token)];
    expect(remoteCalls([call(3, log)])).to.deep.equal([
      { contractId: token, height: 7, microIndex: 1, txIndex: 3 },
      { contractId: pair, height: 7, microIndex: 1, txIndex: 3 },
    ]);
  });

  it('leaves out addresses that name no contract, entries without one, and logs that are no list', () => {
    const log = [entry(encode('ak', randomBytes(32))), entry(12), { topics: [] }, [token], 'ct_text'];
    expect(remoteCalls([call(0, log), call(1, { [token]: entry(token) }), call(2, undefined)])).to.deep.equal([]);
  });

  it('has none for a call whose info the node had pruned', () => {
    expect(remoteCalls([call(0, [entry(token)], false)])).to.deep.equal([]);
  });
});
