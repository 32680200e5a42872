/**
 * @module The ids a transaction is listed under (chain/tx-fields `indexedIds`, `nameReferences`) against a plain walk of
 * its JSON written here from the rule alone (every `<x>_id`, `<x>_ids` and pointer value matching a regex of the id
 * prefixes, then the created ids, then the wrapped transaction's as `tx.<field>`): the same ids in the same order
 * with the same fields, over every transaction type a devnode chain holds, the real node's recorded transactions, and
 * each of them with its ids turned into names or broken.
 */
import { expect } from 'chai';
import { createdIds, indexedIds, nameReferences, type NameReference } from '../../../src/chain/tx-fields.ts';
import { isJsonObject, parseJson, type Json } from '../../../src/chain/json.ts';
import { generateChain } from '../../../src/devnode/index.ts';
import { txJson } from '../../../src/devnode/api/views.ts';
import { readExchanges } from '../../support/real-node-recording.ts';

type Obj = { [key: string]: Json };

const ID = /^(ak|ok|ct|ch|nm|oq|cm)_[1-9A-HJ-NP-Za-km-z]+$/;
const NAME_FIELDS: Record<string, [field: string, key: string, prefix: NameReference['prefix'], pointeeOnly: boolean]> =
  {
    SpendTx: ['recipient_id', 'account_pubkey', 'ak', true],
    NameTransferTx: ['recipient_id', 'account_pubkey', 'ak', false],
    OracleQueryTx: ['oracle_id', 'oracle_pubkey', 'ok', false],
    ContractCallTx: ['contract_id', 'contract_pubkey', 'ct', true],
  };

function wrapped(tx: Obj): Obj | undefined {
  if (tx.type !== 'GAMetaTx' && tx.type !== 'PayingForTx') return undefined;
  return isJsonObject(tx.tx) && isJsonObject(tx.tx.tx) ? tx.tx.tx : undefined;
}

/** oracleRefs: the names each level sends to, the outer first. */
function oracleRefs(tx: Obj, prefix = ''): NameReference[] {
  const rule = NAME_FIELDS[String(tx.type)];
  const value = rule ? tx[rule[0]] : undefined;
  const own =
    rule && typeof value === 'string' && value.startsWith('nm_')
      ? [{ nameHash: value, field: prefix + rule[0], key: rule[1], prefix: rule[2], pointeeOnly: rule[3] }]
      : [];
  const inner = wrapped(tx);
  return inner ? [...own, ...oracleRefs(inner, `${prefix}tx.`)] : own;
}

/** oracleIds: [id, fields] in the order of first appearance, less the names a spend or a call sends to. */
function oracleIds(tx: Obj): [string, string[]][] {
  const found: [string, string][] = [];
  const walk = (t: Obj, prefix: string): void => {
    for (const [key, value] of Object.entries(t)) {
      const values = key.endsWith('_id')
        ? [value]
        : key.endsWith('_ids')
          ? Array.isArray(value)
            ? value
            : isJsonObject(value)
              ? Object.values(value).flatMap((v) => (Array.isArray(v) ? v : []))
              : []
          : key === 'pointers' && Array.isArray(value)
            ? value.map((p) => (isJsonObject(p) ? p.id : undefined))
            : [];
      for (const v of values) if (typeof v === 'string' && ID.test(v)) found.push([v, prefix + key]);
    }
    for (const [field, id] of Object.entries(createdIds(t))) if (ID.test(id)) found.push([id, prefix + field]);
    const inner = wrapped(t);
    if (inner) walk(inner, `${prefix}tx.`);
  };
  walk(tx, '');
  const dropped = new Set(oracleRefs(tx).flatMap((r) => (r.pointeeOnly ? [`${r.nameHash} ${r.field}`] : [])));
  const ids = new Map<string, string[]>();
  for (const [id, field] of found) {
    if (dropped.has(`${id} ${field}`)) continue;
    const fields = ids.get(id) ?? [];
    if (!fields.includes(field)) fields.push(field);
    ids.set(id, fields);
  }
  return [...ids];
}

/** variants: the tx, and the tx with every id-bearing string turned into a name, then broken in two ways. */
function variants(tx: Obj): Obj[] {
  const text = JSON.stringify(tx, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v));
  const ids = [...new Set(text.match(/"(ak|ok|ct|ch|cm|oq)_[1-9A-HJ-NP-Za-km-z]+"/g) ?? [])];
  const replaced = (to: (id: string) => string): Obj =>
    JSON.parse(ids.reduce((t, id) => t.split(id).join(`"${to(id.slice(1, -1))}"`), text)) as Obj;
  return [
    tx,
    replaced((id) => `nm_${id.slice(3)}`),
    replaced((id) => `${id.slice(0, -1)}0`),
    replaced((id) => `${id.slice(0, 2)}-${id.slice(3)}`),
    replaced(() => 'ak_'),
  ];
}

function expectSameListing(txs: readonly Obj[]): void {
  for (const original of txs)
    for (const tx of variants(original)) {
      const refs = nameReferences(tx);
      expect(refs, String(tx.type)).to.deep.equal(oracleRefs(tx));
      expect([...indexedIds(tx, createdIds, refs)], String(tx.type)).to.deep.equal(oracleIds(tx));
    }
}

describe('chain/tx-fields: the listing against a plain walk of the JSON', () => {
  it('lists every transaction type of a devnode chain as the walk does, names and broken ids too', () => {
    const { chain } = generateChain({ generations: 150, seed: 'tx-fields-oracle', hcVotes: true, madeUpTxs: true });
    const txs = [...chain.txs.values()].map((r) => (parseJson(txJson(r)) as Obj).tx as Obj);
    const types = new Set(txs.flatMap((t) => [String(t.type), String(wrapped(t)?.type)]));
    expect(types.size).to.be.above(24);
    expectSameListing(txs);
  });

  it("lists the real node's recorded transactions as the walk does", () => {
    const txs = readExchanges('chain.ndjson.gz')
      .filter((e) => e.status === 200 && /^\/v3\/transactions\/th_[^/?]+$/.test(e.path))
      .map((e) => (parseJson(e.body) as Obj).tx as Obj);
    expect(txs.length).to.equal(357);
    expectSameListing(txs);
  });
});
