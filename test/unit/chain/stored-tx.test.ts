/**
 * @module The stored transaction's guarantee under altered JSON: storedTxColumns keeps the binary form only where
 * it renders back as the node's JSON, and the serialiser's proof (tx-serialize `signedTxEncoding`), which spares the
 * render-back check, decides as that check would. Every transaction type of a devnode chain, each field altered in
 * the ways JSON can differ from what the bytes render; the aepp-sdk's encoder is the oracle for the one text of bytes.
 */
import { createHash } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import { expect } from 'chai';
import { encode as sdkEncode, Encoding } from '@aeternity/aepp-sdk';
import bs58 from 'bs58';
import { decode } from '../../../src/chain/encoding.ts';
import { parseJson, stringifyJson, type Json } from '../../../src/chain/json.ts';
import {
  encodedStoredTx,
  isBinary,
  renderStoredTx,
  storedTxAmounts,
  storedTxColumns,
  txAmounts,
} from '../../../src/chain/stored-tx.ts';
import { txDeltas } from '../../../src/chain/balance-deltas.ts';
import { signedTxBytes, signedTxEncoding } from '../../../src/chain/tx-serialize.ts';
import { generateChain } from '../../../src/devnode/index.ts';
import { txJson } from '../../../src/devnode/api/views.ts';

type JsonObject = { [key: string]: Json };
type Path = readonly (string | number)[];

const BASE64_ENCODINGS: Readonly<Record<string, Encoding>> = {
  ba: Encoding.Bytearray,
  cb: Encoding.ContractBytearray,
  st: Encoding.State,
  pi: Encoding.Poi,
  tx: Encoding.Transaction,
  ss: Encoding.StateTrees,
};
/** NEGATIVE_ZERO marks a number to print as `-0` in the JSON text. */
const NEGATIVE_ZERO = '(-0)';
const BASE64_DIGITS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

/** withChecksum is `prefix_` and the payload with a checksum of its bytes' double SHA-256, one bit of it flipped. */
function wrongChecksum(text: string): string {
  const prefix = text.slice(0, 2);
  const bytes = decode(text).bytes;
  const sum = createHash('sha256').update(createHash('sha256').update(bytes).digest()).digest().subarray(0, 4);
  sum[3]! ^= 1;
  const payload = Buffer.concat([bytes, sum]);
  return `${prefix}_${prefix in BASE64_ENCODINGS ? payload.toString('base64') : bs58.encode(payload)}`;
}

/** signatureBytes are the bytes of a signature's text, its checksum's four bytes left out and not checked. */
function signatureBytes(text: string): Buffer {
  return Buffer.from(bs58.decode(text.slice(3))).subarray(0, -4);
}

/** otherBase64Texts are texts that Buffer decodes to the same bytes as the sdk's one text of them. */
function otherBase64Texts(text: string): string[] {
  const prefix = text.slice(0, 2);
  expect(sdkEncode(decode(text).bytes, BASE64_ENCODINGS[prefix]!), 'the node prints the sdk’s text').to.equal(text);
  const out = [
    text.replaceAll('+', '-').replaceAll('/', '_'),
    text.replace(/=+$/, ''),
    `${text.slice(0, 5)}\n${text.slice(5)}`,
  ];
  const pad = /=+$/.exec(text)?.[0].length ?? 0;
  if (pad > 0) {
    const at = text.length - pad - 1;
    out.push(`${text.slice(0, at)}${BASE64_DIGITS[BASE64_DIGITS.indexOf(text[at]!) ^ 1]}${text.slice(at + 1)}`);
  }
  return out.filter((o) => o !== text);
}

function get(value: Json, path: Path): Json | undefined {
  return path.reduce<Json | undefined>((v, k) => (v as { [k: string | number]: Json } | undefined)?.[k], value);
}

/** altered is a deep copy of `value` with `change` applied to the parent of `path` (by way of its last key). */
function altered(
  value: Json,
  path: Path,
  change: (parent: { [k: string | number]: Json }, key: string | number) => void,
): Json {
  const copy = structuredClone(value);
  change(get(copy, path.slice(0, -1)) as { [k: string | number]: Json }, path.at(-1)!);
  return copy;
}

/** Alteration is one changed copy of a signed tx, and whether it must be kept as JSON text. */
interface Alteration {
  readonly what: string;
  readonly signed: JsonObject;
  readonly mustBeJson: boolean;
}

/** alterations lists, for every field of the signed tx (wrapped ones included), the JSON that differs from the bytes. */
function alterations(signed: JsonObject): Alteration[] {
  const out: Alteration[] = [];
  const add = (what: string, path: Path, change: Parameters<typeof altered>[2], mustBeJson = true) =>
    out.push({ what: `${what} at ${path.join('.')}`, signed: altered(signed, path, change) as JsonObject, mustBeJson });
  const walk = (value: Json, path: Path): void => {
    const key = path.at(-1);
    if (Array.isArray(value)) value.forEach((v, i) => walk(v, [...path, i]));
    else if (value !== null && typeof value === 'object') {
      add('an extra field', [...path, 'extra'], (p, k) => (p[k] = 1));
      for (const k of Object.keys(value)) {
        // a ttl the node omits is 0: deleting one renders as the JSON without it, and may stay binary
        add('a missing field', [...path, k], (p, kk) => delete p[kk], k !== 'ttl');
        walk(value[k]!, [...path, k]);
      }
    } else if (typeof value === 'number' || typeof value === 'bigint') {
      add('a number as a string', path, (p, k) => (p[k] = String(p[k])));
      if (typeof value === 'number') add('a fraction', path, (p, k) => (p[k] = value + 0.5));
      // JSON.parse reads `-0` as a number the bytes cannot hold: the text is edited after stringifying
      if (value === 0) add('a negative zero', path, (p, k) => (p[k] = NEGATIVE_ZERO));
      if (key === 'ttl' && value !== 0) add('a ttl of 0 the node omits', path, (p, k) => (p[k] = 0));
    } else if (typeof value === 'string' && /^[a-z]{2}_/.test(value) && key !== 'type') {
      if (value.slice(0, 2) in BASE64_ENCODINGS)
        for (const other of otherBase64Texts(value)) add('a non-canonical Base64', path, (p, k) => (p[k] = other));
      add('a wrong checksum', path, (p, k) => (p[k] = wrongChecksum(value)));
    } else if (typeof value === 'string' && /^0x[0-9a-f]+$/.test(value)) {
      add('upper-case hex', path, (p, k) => (p[k] = value.toUpperCase()));
    } else if (typeof value === 'string' && key !== 'type') {
      add('text with a leading BOM', path, (p, k) => (p[k] = `\ufeff${value}`));
      add('text with a lone surrogate', path, (p, k) => (p[k] = `${value}\ud800`));
    }
  };
  walk(signed.tx!, ['tx']);
  const signatures = signed.signatures;
  if (Array.isArray(signatures)) {
    signatures.forEach((s, i) =>
      add('a wrong checksum', ['signatures', i], (p, k) => (p[k] = wrongChecksum(s as string))),
    );
    if (signatures.length > 0) add('a missing signatures list', ['signatures'], (p, k) => delete p[k]);
    add(
      'an unsorted signature list',
      ['signatures'],
      (p, k) => (p[k] = [...signatures].reverse()),
      signatures.length > 1,
    );
  } else add('a signature list the node omits', ['signatures'], (p, k) => (p[k] = []));
  add('a version as a string', ['tx', 'version'], (p, k) => (p[k] = String(p[k])));
  return out;
}

/** rendersBack is the render-back check done in full: the bytes, rendered, deep equal to `signatures` and `tx`. */
function rendersBack(signed: JsonObject): boolean {
  let bytes: Uint8Array;
  try {
    bytes = signedTxBytes({ tx: signed.tx ?? null, signatures: signed.signatures ?? [] });
  } catch {
    return false;
  }
  const rendered = renderStoredTx(bytes);
  const signatures = Array.isArray(signed.signatures) ? signed.signatures : null;
  return isDeepStrictEqual(rendered, { signatures, tx: signed.tx });
}

describe('stored transactions under altered JSON (chain/stored-tx, the serialiser’s proof)', () => {
  // 200 generations hold every type the devnode generates, the channels' last ones (close, deposit, withdraw, set
  // delegates) included, and every wrapped kind: 28 kinds sampled (asserted below), as 300 did
  const { chain } = generateChain({ generations: 200, seed: 'stored-tx-altered', hcVotes: true });
  // the JSON alone, as a node before 7.x printed it: a 7.x node's encoded_tx gives the bytes (its own case below)
  const encodedTxs = new Map<Json | undefined, Json | undefined>();
  const txs = [...chain.txs.values()].map((r) => {
    const { encoded_tx: encoded, ...json } = parseJson(txJson(r)) as JsonObject;
    encodedTxs.set(json.hash, encoded);
    return json;
  });
  // a few of each type and wrapped type, altered field by field
  const samples = new Map<string, JsonObject[]>();
  for (const signed of txs) {
    const tx = signed.tx as JsonObject;
    const kind = `${String(tx.type)}/${String(((tx.tx as JsonObject | undefined)?.tx as JsonObject | undefined)?.type)}`;
    const list = samples.get(kind) ?? [];
    if (list.length < 3) samples.set(kind, [...list, signed]);
  }

  it('vouches for every transaction of a devnode chain but those it leaves to the full check', () => {
    const unvouched = new Set<string>();
    for (const signed of txs) {
      const type = String((signed.tx as JsonObject).type);
      // an HCVoteTx's JSON lacks its vote type: the serialiser cannot rebuild it at all, and it is kept as JSON
      if (type === 'HCVoteTx') {
        expect(() => signedTxEncoding({ tx: signed.tx!, signatures: signed.signatures ?? [] })).to.throw(/vote_type/);
        expect(isBinary(storedTxColumns(signed).signed)).to.equal(false);
        continue;
      }
      const { renders } = signedTxEncoding({ tx: signed.tx!, signatures: signed.signatures ?? [] });
      if (!renders) unvouched.add(type);
      expect(isBinary(storedTxColumns(signed).signed)).to.equal(rendersBack(signed));
    }
    // an off-chain call's update is checked by rendering it
    expect([...unvouched]).to.deep.equal(['ChannelForceProgressTx']);
    expect(samples.size).to.be.at.least(28);
  });

  it("gives a transaction's ids, integers and a force progress's update as the node's JSON has them, a wrapped one's too, and no other field", () => {
    // what a change's rules read: every type's deltas the same from these as from the whole JSON
    const facts = {
      call: { gasUsed: 1234n, ok: true },
      gaGasUsed: 56n,
      gaOk: true,
      recipient: 'ak_2QkttUgEyPixKzqXkJ4LX7ugbRjwCDWPBT4p4M2r8brjxUxUYd',
    };
    // a create's VM and ABI versions are one integer of two (not an `int`): left out too
    const shown = (key: string, value: Json | undefined, full: JsonObject): boolean =>
      (key === 'update' && full.type === 'ChannelForceProgressTx') ||
      (key !== 'vm_version' &&
        !(key === 'abi_version' && 'vm_version' in full) &&
        (typeof value === 'number' ||
          typeof value === 'bigint' ||
          (typeof value === 'string' && /^(ak|ct|ok|nm|cm|ch)_/.test(value))));
    const sameAmounts = (part: JsonObject, full: JsonObject): void => {
      for (const [key, value] of Object.entries(full)) {
        if (key === 'tx') {
          const wrapped = part.tx as JsonObject;
          expect(wrapped).to.not.have.property('signatures');
          sameAmounts(wrapped.tx as JsonObject, (value as JsonObject).tx as JsonObject);
        } else if (key === 'type' || shown(key, value, full)) expect(part[key], key).to.deep.equal(value);
        else expect(part, key).to.not.have.property(key);
      }
    };
    let binary = 0;
    for (const signed of txs) {
      const stored = storedTxColumns(signed).signed;
      const part = storedTxAmounts(stored);
      const full = signed.tx as JsonObject;
      if (isBinary(stored)) {
        binary++;
        sameAmounts(part, full);
      } else expect(part).to.deep.equal(full);
      expect(txDeltas(part, facts)).to.deep.equal(txDeltas(full, facts));
    }
    expect(binary).to.be.greaterThan(txs.length / 2);
  });

  it("takes of a transaction's JSON the fields its stored bytes give as its amounts, a wrapped one's too", () => {
    // the populator's copy of a transaction it wrote must be what the balances would read back: the same object for
    // every stored binary form, the same changes for one kept as JSON (whose amounts are all its fields)
    const facts = { call: { gasUsed: 1234n, ok: true }, gaGasUsed: 56n, gaOk: true, recipient: 'ak_x' };
    const types = new Set<string>();
    for (const signed of txs) {
      const stored = storedTxColumns(signed).signed;
      const kept = txAmounts(signed.tx as JsonObject);
      types.add(String(kept.type));
      if (isBinary(stored)) expect(kept).to.deep.equal(storedTxAmounts(stored));
      expect(txDeltas(kept, facts)).to.deep.equal(txDeltas(storedTxAmounts(stored), facts));
    }
    expect(types.size).to.be.at.least(26);
  });

  it('keeps altered JSON as text and renders every alteration back as it came, deciding as the full check does', () => {
    let count = 0;
    const kept = new Set<string>();
    for (const signed of [...samples.values()].flat()) {
      for (const { what, signed: changed, mustBeJson } of alterations(signed)) {
        // as the populator reads it: the JSON text parsed
        const input = parseJson(stringifyJson(changed).replaceAll(`"${NEGATIVE_ZERO}"`, '-0')) as JsonObject;
        const stored = storedTxColumns(input).signed;
        const rendered = renderStoredTx(stored);
        const signatures = Array.isArray(input.signatures) ? input.signatures : null;
        // as JSON text: the same but for a -0, which JSON prints as 0
        expect(rendered, what).to.deep.equal(parseJson(stringifyJson({ signatures, tx: input.tx! })));
        expect(isBinary(stored), what).to.equal(rendersBack(input));
        if (mustBeJson) expect(isBinary(stored), what).to.equal(false);
        // the proof alone: what it vouches for renders as `tx` and as the signatures it was given
        const given = input.signatures ?? [];
        const encoded = (() => {
          try {
            return signedTxEncoding({ tx: input.tx!, signatures: given });
          } catch {
            return undefined;
          }
        })();
        if (encoded?.renders) {
          const back = renderStoredTx(encoded.bytes);
          expect(back.tx, what).to.deep.equal(input.tx);
          if (back.signatures !== null) expect(back.signatures, what).to.deep.equal(given);
        }
        kept.add(what.split(' at ')[0]!);
        count++;
      }
    }
    expect(count).to.be.greaterThan(2000);
    for (const what of [
      'a non-canonical Base64',
      'a wrong checksum',
      'an extra field',
      'a missing field',
      'a number as a string',
      'upper-case hex',
      'text with a leading BOM',
      'text with a lone surrogate',
      'an unsorted signature list',
      'a ttl of 0 the node omits',
      'a negative zero',
    ])
      expect(kept, what).to.include(what);
  });

  it("keeps a 7.x node's bytes exactly where they render as its JSON, altered or not", () => {
    let binary = 0;
    for (const signed of [...samples.values()].flat()) {
      const encoded = encodedTxs.get(signed.hash);
      expect(encoded).to.be.a('string');
      const bytes = decode(encoded as string).bytes;
      const variants = [{ what: 'as sent', signed }, ...alterations(signed)];
      for (const { what, signed: changed } of variants) {
        const input = parseJson(stringifyJson({ ...changed, encoded_tx: encoded! })) as JsonObject;
        const stored = storedTxColumns(input).signed;
        // the oracle: the node's bytes rendered, compared with the JSON it sent beside them, its signatures by their
        // bytes (their checksums are not checked, as the encoded_tx's are not)
        const rendered = renderStoredTx(bytes);
        const signatures = Array.isArray(input.signatures)
          ? input.signatures.map((s) => signatureBytes(String(s)))
          : null;
        const renders = isDeepStrictEqual(
          { signatures: rendered.signatures?.map(signatureBytes) ?? null, tx: rendered.tx },
          { signatures, tx: input.tx },
        );
        expect(isBinary(stored), what).to.equal(renders);
        if (renders) expect(Buffer.from(stored).equals(bytes), what).to.equal(true);
        if (what === 'as sent')
          expect(isBinary(stored), `${String((signed.tx as JsonObject).type)} as sent`).to.equal(true);
        if (renders) binary++;
      }
    }
    expect(binary).to.be.greaterThan(100);
  });

  it("keeps a 7.x node's bytes as JSON text where a signature's bytes differ from its JSON's, whatever its checksums", () => {
    let count = 0;
    for (const signed of [...samples.values()].flat()) {
      const bytes = decode(encodedTxs.get(signed.hash) as string).bytes;
      if (!Array.isArray(signed.signatures) || signed.signatures.length === 0) continue;
      // a stored binary that is not the node's: one bit of its first signature flipped, the JSON as the node sent it
      const at = bytes.indexOf(signatureBytes(signed.signatures[0] as string).subarray(0, 64));
      expect(at, 'the signature is in the bytes').to.be.greaterThan(0);
      const broken = Buffer.from(bytes);
      broken[at + 63]! ^= 1;
      const encoded = sdkEncode(broken, Encoding.Transaction);
      expect(isBinary(storedTxColumns({ ...signed, encoded_tx: encoded }).signed), 'a broken binary').to.equal(false);
      // the same with its checksum in the JSON made right for the broken bytes, and left wrong
      const sdkSignature = sdkEncode(broken.subarray(at, at + 64), Encoding.Signature);
      for (const text of [sdkSignature, wrongChecksum(sdkSignature)]) {
        const json = { ...signed, signatures: [text, ...signed.signatures.slice(1)], encoded_tx: encoded };
        expect(isBinary(storedTxColumns(json).signed), 'its JSON of the broken bytes').to.equal(true);
        expect(isBinary(storedTxColumns({ ...json, encoded_tx: encodedTxs.get(signed.hash)! }).signed)).to.equal(false);
      }
      count++;
    }
    expect(count).to.be.greaterThan(20);
  });

  it("keeps a 7.x node's bytes whose encoded_tx checksum is wrong where they render as its JSON: the render is the check", () => {
    for (const signed of [...samples.values()].flat().slice(0, 20)) {
      const bytes = decode(encodedTxs.get(signed.hash) as string).bytes;
      const stored = storedTxColumns({ ...signed, encoded_tx: wrongChecksum(sdkEncode(bytes, Encoding.Transaction)) });
      expect(isBinary(stored.signed), String((signed.tx as JsonObject).type)).to.equal(true);
      expect(Buffer.from(stored.signed).equals(bytes)).to.equal(true);
    }
  });
});

describe("a 7.x node's encoded_tx of a transaction stored as JSON (chain/stored-tx)", () => {
  const { chain } = generateChain({ generations: 40, seed: 'stored-tx-encoded', madeUpTxs: true });
  const records = [...chain.txs.values()];

  it('keeps the encoded_tx the node sent with a type the serialiser cannot read, and gives it back as it came', () => {
    const madeUp = records.filter((r) => r.tx.type === 'DevnodeMadeUpTx');
    expect(madeUp.length).to.be.above(0);
    for (const r of madeUp) {
      const signed = parseJson(txJson(r)) as JsonObject;
      const stored = storedTxColumns(signed).signed;
      expect(isBinary(stored)).to.equal(false);
      // the signed bytes, by aepp-sdk's encoder: the node's encoded_tx, to the byte
      expect(encodedStoredTx(stored)).to.equal(sdkEncode(r.signedBytes, Encoding.Transaction));
      expect(renderStoredTx(stored)).to.deep.equal({ signatures: signed.signatures, tx: signed.tx });
      // as a node before 7.x sent it: none to keep
      const { encoded_tx: _, ...json } = signed;
      expect(encodedStoredTx(storedTxColumns(json).signed)).to.equal(null);
    }
  });

  it("gives a binary form's bytes as its encoded_tx", () => {
    const spend = records.find((r) => r.tx.type === 'SpendTx')!;
    const stored = storedTxColumns(parseJson(txJson(spend)) as JsonObject).signed;
    expect(isBinary(stored)).to.equal(true);
    expect(encodedStoredTx(stored)).to.equal(sdkEncode(spend.signedBytes, Encoding.Transaction));
  });
});
