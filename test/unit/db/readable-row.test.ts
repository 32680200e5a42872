/** @module readableRow: a derived row's stored id keys (migration 1000) shown as the ids the node prints. */
import { expect } from 'chai';
import { decode, MemoryAccount } from '@aeternity/aepp-sdk';
import { readableRow } from '../../../src/db/queries/derived-rows.ts';

/** keyJson is an id's stored key as row_to_json prints a bytea: `"\\x` then the tag and 32 bytes in hex. */
const keyJson = (tag: number, id: `ak_${string}` | `ok_${string}`): string =>
  `"\\\\x${tag.toString(16).padStart(2, '0')}${Buffer.from(decode(id)).toString('hex')}"`;

describe('readableRow', () => {
  it('shows an account key as its ak_ id and an oracle key (same bytes) as its ok_ id', () => {
    const account = MemoryAccount.generate().address;
    const oracle = `ok_${account.slice(3)}` as `ok_${string}`;
    const row = `{"height":60,"account":${keyJson(1, account)},"other":${keyJson(4, oracle)},"tx_type":12}`;
    expect(JSON.parse(readableRow(row))).to.deep.equal({ height: 60, account, other: oracle, tx_type: 12 });
  });

  it('leaves other text alone: hashes, a bytea of another length, a tag no id has', () => {
    const hash = '"th_2Bn3jcvy4fUb1ZbWYjBUK9LQaS8LHG5XnqXWkG4Fq3b1bWFh7"';
    const short = '"\\\\x01ab"';
    const noTag = `"\\\\x09${'ab'.repeat(32)}"`;
    for (const value of [hash, short, noTag]) expect(readableRow(`{"v":${value}}`)).to.equal(`{"v":${value}}`);
  });
});
