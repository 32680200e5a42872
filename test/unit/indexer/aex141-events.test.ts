/** @module AEX-141's events read from call logs: each standard event's topics, arity checks, positions. */
import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import { encode, Encoding, hash } from '@aeternity/aepp-sdk';
import { aex141Candidates, readAex141Event } from '../../../src/indexer/derived/aex141-events.ts';
import type { ContractCallRow } from '../../../src/indexer/rows/rows.ts';

const key = (): Buffer => randomBytes(32);
const int = (bytes: Uint8Array): bigint => BigInt(`0x${Buffer.from(bytes).toString('hex')}`);
const ak = (bytes: Uint8Array): string => encode(bytes, Encoding.AccountAddress);
const ct = (bytes: Uint8Array): string => encode(bytes, Encoding.ContractAddress);
const topic0 = (name: string): bigint => int(hash(name));

describe('AEX-141 events', () => {
  const collection = ct(key());
  const [alice, bob] = [key(), key()];
  const event = (name: string, args: bigint[], data = '') => ({
    logIdx: 0,
    address: collection,
    topics: [topic0(name), ...args],
    data: Buffer.from(data),
  });
  const none = { fromId: null, toId: null, tokenId: null, templateId: null, limit: null, edition: null };
  const big = 2n ** 200n;

  it('reads ownership events: Transfer [from, to, token], Mint [to, token], Burn [owner, token], TemplateMint [to, template, token] + edition', () => {
    expect(readAex141Event(event('Transfer', [int(alice), int(bob), big]))).to.deep.equal({
      ...none,
      contractId: collection,
      kind: 'transfer',
      fromId: ak(alice),
      toId: ak(bob),
      tokenId: big.toString(),
    });
    expect(readAex141Event(event('Mint', [int(bob), 3n]))).to.deep.include({
      kind: 'mint',
      toId: ak(bob),
      fromId: null,
      tokenId: '3',
    });
    expect(readAex141Event(event('Burn', [int(alice), 3n]))).to.deep.include({
      kind: 'burn',
      fromId: ak(alice),
      toId: null,
      tokenId: '3',
    });
    expect(readAex141Event(event('TemplateMint', [int(bob), 2n, 9n], '4'))).to.deep.include({
      kind: 'template_mint',
      toId: ak(bob),
      templateId: '2',
      tokenId: '9',
      edition: '4',
    });
  });

  it('reads templates and limits, a decrease as its new limit', () => {
    expect(readAex141Event(event('TemplateCreation', [5n]))).to.deep.include({
      kind: 'template_creation',
      templateId: '5',
    });
    expect(readAex141Event(event('TemplateDeletion', [5n]))).to.deep.include({
      kind: 'template_deletion',
      templateId: '5',
    });
    expect(readAex141Event(event('TokenLimit', [100n]))).to.deep.include({
      kind: 'token_limit',
      limit: '100',
      templateId: null,
    });
    expect(readAex141Event(event('TokenLimitDecrease', [100n, 90n]))).to.deep.include({
      kind: 'token_limit',
      limit: '90',
    });
    expect(readAex141Event(event('TemplateLimit', [8n]))).to.deep.include({ kind: 'template_limit', limit: '8' });
    expect(readAex141Event(event('TemplateLimitDecrease', [8n, 6n]))).to.deep.include({
      kind: 'template_limit',
      limit: '6',
    });
    expect(readAex141Event(event('EditionLimit', [1n, 5n]))).to.deep.include({
      kind: 'edition_limit',
      templateId: '1',
      limit: '5',
    });
    expect(readAex141Event(event('EditionLimitDecrease', [1n, 5n, 3n]))).to.deep.include({
      kind: 'edition_limit',
      templateId: '1',
      limit: '3',
    });
  });

  it('ignores approvals, other events and the wrong arity (an AEX-9 Mint has the same shape as an NFT Mint: the writer decides by the contract)', () => {
    expect(readAex141Event(event('Approval', [int(alice), int(bob), 1n], 'true'))).to.equal(undefined);
    expect(readAex141Event(event('ApprovalForAll', [int(alice), int(bob)], 'true'))).to.equal(undefined);
    expect(readAex141Event(event('Allowance', [int(alice), int(bob), 1n]))).to.equal(undefined);
    expect(readAex141Event(event('Transfer', [int(alice), int(bob)]))).to.equal(undefined);
    expect(readAex141Event(event('Mint', [int(alice), 1n, 2n]))).to.equal(undefined);
    expect(readAex141Event(event('Mint', [1n << 256n, 1n]))).to.equal(undefined);
  });

  it('finds the candidates of calls in emission order with their positions', () => {
    const call: ContractCallRow = {
      height: 4,
      microIndex: 0,
      txIndex: 1,
      txHash: 'th_x',
      contractId: collection,
      callerId: ak(alice),
      function: null,
      arguments: null,
      // the node lists the newest event first
      callInfo: {
        log: [
          { address: collection, topics: [topic0('Transfer'), int(bob), int(alice), 1n], data: 'cb_Xfbg4g==' },
          { address: collection, topics: [topic0('Approval'), int(alice), int(bob), 1n], data: 'cb_Xfbg4g==' },
          { address: collection, topics: [topic0('Mint'), int(bob), 1n], data: 'cb_Xfbg4g==' },
        ],
      } as ContractCallRow['callInfo'],
      callInfoPruned: false,
      result: null,
      decodeError: null,
    };
    expect(aex141Candidates([call]).map((e) => [e.logIdx, e.kind, e.height, e.txHash])).to.deep.equal([
      [0, 'mint', 4, 'th_x'],
      [2, 'transfer', 4, 'th_x'],
    ]);
  });
});
