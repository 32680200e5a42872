/**
 * @module A DEX of the devnode's own (wrapped AE, pair model, factory, router), deployed into a running chain's mempool
 * for `mdw dev`: the middleware's DEX_FACTORY and DEX_WRAPPED_AE then name contracts of this chain, not mainnet's.
 */
import type { Chain } from './chain.ts';
import { signBuilt } from './generator.ts';
import { contractId } from './ids.ts';
import type { KeyPair } from './keys.ts';
import { TxRejected } from './rules/common.ts';
import { address, NONE } from '../chain/fate.ts';
import type { ContractKind } from './contracts/standards.ts';
import { createTx } from './contracts/txs.ts';

/** DevnodeDex are the ids of a deployed DEX. */
export interface DevnodeDex {
  readonly wrappedAe: string;
  readonly factory: string;
  readonly router: string;
}

/**
 * deployDex submits the four creations, signed by `owner` with its next nonces, to the chain's mempool (the next micro
 * block includes them) and returns the contracts' ids, which follow from the owner and those nonces. The pair model
 * is the template the real factory clones; its init arguments are placeholders (a model holds no reserves). Undefined
 * when the chain's protocol takes no contract yet (a hard-fork schedule that starts before contracts).
 */
export function deployDex(chain: Chain, owner: KeyPair): DevnodeDex | undefined {
  let nonce = chain.pending.accounts.get(owner.address)?.nonce ?? 0;
  const deploy = (kind: ContractKind, args: Parameters<typeof createTx>[3]): string => {
    nonce++;
    chain.submit(signBuilt(chain.options.networkId, createTx(owner, nonce, kind, args)));
    return contractId(owner.address, nonce);
  };
  let wrappedAe;
  try {
    wrappedAe = deploy('wae', []);
  } catch (err) {
    if (err instanceof TxRejected) return undefined;
    throw err;
  }
  const model = deploy('pair', [address(wrappedAe), address(wrappedAe), address(wrappedAe), NONE, NONE]);
  const factory = deploy('factory', [address(owner.address), address(model), NONE]);
  const router = deploy('router', [address(factory), address(wrappedAe), address(wrappedAe)]);
  return { wrappedAe, factory, router };
}
