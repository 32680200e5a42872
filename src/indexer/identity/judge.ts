/**
 * @module The chain-identity rules, pure: whether a role may write into or serve a schema, given what the schema
 * recorded (docs/operations.md, "Chain identity"), what its nodes say they serve and who runs the role. Every refusal
 * is one line naming both sides and the variable to fix.
 */
import type { RecordedIdentity, SchemaFacts } from '../../db/queries/schema-identity.ts';
import type { NodeChain } from '../../node/chain-identity.ts';

/** Who runs this binary: the Middleware the operator runs it for (MIDDLEWARE_UID, MIDDLEWARE_NAME), or nobody. */
export interface Owner {
  readonly uid: string | undefined;
  readonly name: string | undefined;
}

export interface JudgeInput {
  readonly schema: string;
  readonly facts: SchemaFacts;
  /** the nodes that told their chain (a server does not wait for one that is away) */
  readonly nodes: readonly NodeChain[];
  readonly owner: Owner;
  /** a role that writes chain data (the populator, -H): it records, and refuses an owned schema when it has no owner */
  readonly writes: boolean;
}

/** The verdict: refused with a message, or allowed, with what to record (undefined: nothing new). */
export type Verdict =
  { readonly refused: string } | { readonly refused?: undefined; readonly record: RecordedIdentity | undefined };

/** judgeIdentity applies the rules in order: the nodes agree, they serve the schema's chain, the owner is ours. */
export function judgeIdentity(input: JudgeInput): Verdict {
  const { schema, facts, nodes, owner, writes } = input;
  const recorded = facts.identity;
  const first = nodes[0];
  const other = first && nodes.find((n) => !sameChain(n, first));
  if (first && other)
    return refused(
      `the nodes serve different chains: ${describeNode(first)}, but ${describeNode(other)}; ` +
        'NODE_URL and NODE_URLS must all be nodes of one network',
    );
  if (first) {
    const chain = recordedChain(recorded);
    if (chain && !sameChain(chain, first))
      return refused(
        `schema "${schema}" holds ${describeChain(chain)}, but ${describeNode(first)}; ` +
          `fix NODE_URL${nodes.length > 1 ? '/NODE_URLS' : ''}, or DATABASE_SCHEMA to a schema of that chain`,
      );
    if (!chain && facts.storedGenesis !== undefined && facts.storedGenesis !== first.genesisHash)
      return refused(
        `schema "${schema}" holds a chain whose key block at height 0 is ${facts.storedGenesis}, but ` +
          `${describeNode(first)}; fix NODE_URL${nodes.length > 1 ? '/NODE_URLS' : ''}, or DATABASE_SCHEMA to a schema of that chain`,
      );
  }
  const ownerUid = recorded?.ownerUid ?? null;
  if (ownerUid !== null && owner.uid !== undefined && ownerUid !== owner.uid)
    return refused(
      `schema "${schema}" belongs to Middleware ${describeOwner(ownerUid, recorded?.ownerName ?? null)}, ` +
        `not to ${describeOwner(owner.uid, owner.name ?? null)} (MIDDLEWARE_UID) that runs this; ` +
        'give this Middleware its own DATABASE_SCHEMA (its own schema prefix)',
    );
  if (ownerUid !== null && owner.uid === undefined && writes)
    return refused(
      `schema "${schema}" belongs to Middleware ${describeOwner(ownerUid, recorded?.ownerName ?? null)} and this ` +
        'mdw runs without MIDDLEWARE_UID: it may read and verify an owned schema but not write into it; set ' +
        "MIDDLEWARE_UID and MIDDLEWARE_NAME to the owner's, or use another DATABASE_SCHEMA",
    );
  return { record: writes ? toRecord(recorded, first, owner) : undefined };
}

/**
 * judgeDrop refuses (the message) to drop a schema another Middleware owns: a Middleware retiring its generations, or
 * deleted with `reclaimPolicy: Delete`, never drops another's live data. Without an owner (run by hand) a drop is the
 * administrator's own decision.
 */
export function judgeDrop(schema: string, recorded: RecordedIdentity | undefined, owner: Owner): string | undefined {
  const ownerUid = recorded?.ownerUid ?? null;
  if (ownerUid === null || owner.uid === undefined || ownerUid === owner.uid) return undefined;
  return (
    `schema "${schema}" belongs to Middleware ${describeOwner(ownerUid, recorded?.ownerName ?? null)}, not to ` +
    `${describeOwner(owner.uid, owner.name ?? null)} (MIDDLEWARE_UID) that would drop it: nothing dropped; check ` +
    'DATABASE_SCHEMA (the schema prefix)'
  );
}

/** toRecord is what a writer fills in: the chain once a node told it, the owner while the schema has none. */
function toRecord(
  recorded: RecordedIdentity | undefined,
  node: NodeChain | undefined,
  owner: Owner,
): RecordedIdentity | undefined {
  const chainMissing = node !== undefined && (recorded?.networkId == null || recorded.genesisHash == null);
  const ownerMissing = owner.uid !== undefined && (recorded?.ownerUid ?? null) === null;
  if (!chainMissing && !ownerMissing) return undefined;
  return {
    networkId: recorded?.networkId ?? node?.networkId ?? null,
    genesisHash: recorded?.genesisHash ?? node?.genesisHash ?? null,
    ownerUid: recorded?.ownerUid ?? owner.uid ?? null,
    ownerName: recorded?.ownerUid ? recorded.ownerName : (owner.name ?? null),
  };
}

function recordedChain(recorded: RecordedIdentity | undefined): Omit<NodeChain, 'url'> | undefined {
  if (!recorded?.networkId || !recorded.genesisHash) return undefined;
  return { networkId: recorded.networkId, genesisHash: recorded.genesisHash };
}

function sameChain(a: Omit<NodeChain, 'url'>, b: Omit<NodeChain, 'url'>): boolean {
  return a.networkId === b.networkId && a.genesisHash === b.genesisHash;
}

function describeChain(chain: Omit<NodeChain, 'url'>): string {
  return `network ${chain.networkId} (genesis ${chain.genesisHash})`;
}

function describeNode(node: NodeChain): string {
  return `node ${node.url} serves ${describeChain(node)}`;
}

function describeOwner(uid: string, name: string | null): string {
  return name === null ? `uid ${uid}` : `${name} (uid ${uid})`;
}

function refused(message: string): Verdict {
  return { refused: message };
}
