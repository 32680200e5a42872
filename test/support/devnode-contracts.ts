/** @module The devnode's contracts of a kind, from its own state: the truth beside what the chain's logs say. */
import type { Devnode } from '../../src/devnode/index.ts';
import { kindOfCode, type ContractKind } from '../../src/devnode/contracts/standards.ts';

/** contractsOf lists the ids of the devnode's contracts of a kind, in creation order. */
export function contractsOf(devnode: Devnode, kind: ContractKind): string[] {
  return [...devnode.chain.state.contracts.entries()].filter(([, c]) => kindOfCode(c.code) === kind).map(([id]) => id);
}
