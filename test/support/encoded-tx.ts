/**
 * @module The oracle of a transaction object's `encoded_tx` (a 7.x node's GenericSignedTx): decoded by
 * @aeternity/aepp-sdk, it is the signed transaction whose hash is the object's `hash`, whose signatures are its
 * `signatures` and whose inner transaction is its `tx`.
 */
import { buildTxHash, encode, Encoding, SchemaNotFoundError, Tag, unpackTx } from '@aeternity/aepp-sdk';
import { isJsonObject, type Json } from '../../src/chain/json.ts';

const camel = (key: string): string => key.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());

/**
 * encodedTxFaults lists what is wrong with a transaction object's `encoded_tx` (none: it is the object's signed
 * transaction). Each field of `tx` the SDK names alike (`sender_id` as `senderId`) and holds as a scalar is compared
 * as text; the object's fields it holds otherwise (`vm_version` in `ctVersion`, TTL objects, pointers) are left to the
 * hash, which covers every byte.
 */
export function encodedTxFaults(object: { readonly [key: string]: Json }): string[] {
  const encoded = object.encoded_tx;
  if (typeof encoded !== 'string' || !encoded.startsWith('tx_')) return [`no encoded_tx: ${String(encoded)}`];
  const faults: string[] = [];
  const where = String(object.hash);
  if (buildTxHash(encoded as `tx_${string}`) !== object.hash) faults.push(`${where}: its hash is not the object's`);
  /** a SignedTx as the SDK unpacks it: its signatures, and its inner transaction's tag and fields */
  let signed: { signatures: Uint8Array[]; encodedTx: { readonly tag: number; readonly [key: string]: unknown } };
  try {
    signed = unpackTx(encoded as `tx_${string}`, Tag.SignedTx) as unknown as typeof signed;
  } catch (err) {
    // a type the SDK has no schema of (ChannelForceProgressTx's off-chain update, the devnode's made-up type): the
    // hash, taken of every byte, is what tells it the object's
    if (err instanceof SchemaNotFoundError) return faults;
    throw err;
  }
  const signatures = signed.signatures.map((s) => encode(s, Encoding.Signature));
  // the node prints a GAMetaTx without `signatures`
  if (JSON.stringify(signatures) !== JSON.stringify(object.signatures ?? []))
    faults.push(`${where}: signatures ${JSON.stringify(signatures)} ≠ ${JSON.stringify(object.signatures)}`);
  const inner = signed.encodedTx;
  const tx = isJsonObject(object.tx) ? object.tx : {};
  // the SDK spells the generalized accounts' types GaAttachTx, GaMetaTx
  if (Tag[inner.tag]!.toLowerCase() !== String(tx.type).toLowerCase())
    faults.push(`${where}: a ${Tag[inner.tag]} encoded, a ${String(tx.type)} shown`);
  for (const [key, value] of Object.entries(tx)) {
    const sdk = inner[camel(key)];
    const scalar = (v: unknown): boolean => ['string', 'number', 'bigint'].includes(typeof v);
    if (key === 'type' || !scalar(value) || !scalar(sdk)) continue;
    if (String(sdk) !== String(value)) faults.push(`${where}: tx.${key} ${String(value)} encoded as ${String(sdk)}`);
  }
  return faults;
}
