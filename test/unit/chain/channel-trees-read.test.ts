/** @module Off-chain trees' balances read straight, against aepp-sdk's unpacking of the same trees (the oracle). */
import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import { EntryTag, packEntry, unpackEntry } from '@aeternity/aepp-sdk';
import { decode, encode, hash } from '../../../src/chain/encoding.ts';
import { intToBytes, rlpDecode, rlpEncode, type RlpItem } from '../../../src/chain/rlp.ts';
import { poiBalances, stateTreesBalances, UNREAD } from '../../../src/chain/channel-trees-read.ts';
import { EMPTY_POI, poiOfBalances, treesOfBalances } from '../../../src/devnode/traffic/off-chain-trees.ts';

const account = (): string => encode('ak', randomBytes(32));
/** an account whose key begins with these nibbles (a tree with an extension above its branch) */
const accountFrom = (nibbles: string): string =>
  encode('ak', Buffer.from((nibbles + randomBytes(32).toString('hex')).slice(0, 64), 'hex'));

/** what aepp-sdk reads of a proof: each id's balance, undefined where it does not, or throws */
function sdkPoi(poi: string, ids: readonly string[]): (bigint | undefined)[] {
  const trees = unpackEntry(poi as `pi_${string}`, EntryTag.TreesPoi) as unknown as {
    accounts: { get(id: string): { balance: bigint | string } | undefined }[];
  };
  return ids.map((id) => {
    try {
      const found = trees.accounts[0]?.get(id);
      return found === undefined ? undefined : BigInt(found.balance);
    } catch {
      return undefined;
    }
  });
}

/** what aepp-sdk reads of state trees: each id's balance, undefined where they hold none, or throws */
function sdkTrees(trees: string, ids: readonly string[]): (bigint | undefined)[] {
  const { accounts } = unpackEntry(trees as `ss_${string}`, EntryTag.StateTrees) as unknown as {
    accounts: Record<string, { balance: bigint | string }>;
  };
  return ids.map((id) => (Object.hasOwn(accounts, id) ? BigInt(accounts[id]!.balance) : undefined));
}

/** a proof re-encoded after `change` edits its decoded RLP */
function editedPoi(poi: string, change: (top: RlpItem[]) => void): string {
  const top = rlpDecode(decode(poi).bytes) as RlpItem[];
  change(top);
  return encode('pi', rlpEncode(top));
}

describe('channel-trees-read', () => {
  it('reads state trees as aepp-sdk does: both parties, one absent', () => {
    for (let i = 0; i < 20; i++) {
      const [a, b, c] = [account(), account(), account()];
      const balances = [BigInt(i) * 10n ** 18n + 7n, BigInt(2 ** 53) + BigInt(i), 0n] as const;
      const trees = treesOfBalances([
        [a, balances[0]],
        [b, balances[1]],
        [c, balances[2]],
      ]);
      const ids = [a, b, c, account()];
      expect(stateTreesBalances(trees, ids)).to.deep.equal(sdkTrees(trees, ids));
      expect(stateTreesBalances(trees, ids)).to.deep.equal([...balances, undefined]);
    }
  });

  it('reads proofs of inclusion as aepp-sdk does: at the branch, below an extension, absent, empty', () => {
    for (const common of ['', '7', 'a3', 'f0e']) {
      for (let i = 0; i < 10; i++) {
        const [a, b] = [accountFrom(common + '1'), accountFrom(common + 'c')];
        const poi = poiOfBalances([
          [a, 5n + BigInt(i)],
          [b, 10n ** 20n],
        ]);
        // another key under one of the leaves' nibbles, one under none, one of another kind than an account's
        const ids = [a, b, accountFrom(common + '1'), accountFrom(common + '5'), 'ak_2'];
        expect(poiBalances(poi, ids)).to.deep.equal(sdkPoi(poi, ids));
        expect(poiBalances(poi, [a, b])).to.deep.equal([5n + BigInt(i), 10n ** 20n]);
      }
    }
    const ids = [account(), account()];
    expect(poiBalances(EMPTY_POI, ids)).to.deep.equal([undefined, undefined]);
    expect(sdkPoi(EMPTY_POI, ids)).to.deep.equal([undefined, undefined]);
  });

  it('leaves to aepp-sdk what only it would tell: other trees, accounts of version 2, a node of another hash', () => {
    const [a, b] = [account(), account()];
    const poi = poiOfBalances([
      [a, 1n],
      [b, 2n],
    ]);
    // a call tree beside the accounts'
    expect(
      poiBalances(
        editedPoi(poi, (top) => (top[3] = [[hash(Buffer.from('x')), []]])),
        [a, b],
      ),
    ).to.equal(UNREAD);
    // a node whose hash is not its name: aepp-sdk rejects the proof
    const forged = editedPoi(poi, (top) => {
      const [[, nodes]] = top[2] as [[Uint8Array, [Uint8Array, RlpItem[]][]]];
      nodes[0]![1] = [intToBytes(32), intToBytes(1)];
    });
    expect(poiBalances(forged, [a, b])).to.equal(UNREAD);
    expect(() => sdkPoi(forged, [a, b])).to.throw();
    // an account of version 2 (a generalized account's)
    const ga = packEntry({
      tag: EntryTag.StateTrees,
      // the other trees empty
      ...Object.fromEntries(['contracts', 'calls', 'channels', 'ns', 'oracles'].map((tree) => [tree, {}])),
      accounts: {
        [a]: {
          version: 2,
          flags: 0,
          nonce: 0,
          balance: 3n,
          gaContract: encode('ct', randomBytes(32)),
          gaAuthFun: encode('cb', randomBytes(4)),
        },
      },
    } as unknown as Parameters<typeof packEntry>[0]);
    expect(stateTreesBalances(ga, [a, b])).to.equal(UNREAD);
    expect(sdkTrees(ga, [a, b])).to.deep.equal([3n, undefined]);
    // not trees at all, or a checksum that fails
    expect(stateTreesBalances(poi.replace('pi_', 'ss_'), [a, b])).to.equal(UNREAD);
    expect(poiBalances(`${poi.slice(0, -6)}AAAAAA`, [a, b])).to.equal(UNREAD);
  });
});
