/** @module The devnode's contracts of a kind, from its own state: the truth beside what the chain's logs say. */
import type { Devnode } from '../../src/devnode/index.ts';
import { kindOfCode, type ContractKind } from '../../src/devnode/contracts/standards.ts';

/** contractsOf lists the ids of the devnode's contracts of a kind, in creation order. */
export function contractsOf(devnode: Devnode, kind: ContractKind): string[] {
  return [...devnode.chain.state.contracts.entries()].filter(([, c]) => kindOfCode(c.code) === kind).map(([id]) => id);
}

/**
 * tokenStandards maps each of the devnode's token contracts to the standard the AEX-N detection gives it: `aex9` for
 * its fungible tokens (the wrapped AE and the DEX pairs' liquidity tokens too), `aex141` for its NFT collections.
 */
export function tokenStandards(devnode: Devnode): Map<string, string> {
  const found = new Map<string, string>();
  for (const [id, contract] of devnode.chain.state.contracts.entries()) {
    const kind = kindOfCode(contract.code);
    if (kind === 'aex9' || kind === 'wae' || kind === 'pair') found.set(id, 'aex9');
    if (kind === 'aex141') found.set(id, 'aex141');
  }
  return found;
}
