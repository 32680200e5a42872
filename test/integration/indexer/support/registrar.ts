/**
 * @module The registrar contract (src/devnode/contracts: `AENS.claim`, `update`, `transfer`, `revoke` as its internal
 * calls) deployed on a harness's devnode by its first account (the patron), with accounts of the test's funded beside
 * it, and the submission of transactions to that devnode: what the contract-name and contract-bid chains share.
 */
import { reprefix } from '../../../../src/chain/encoding.ts';
import { signBuilt } from '../../../../src/devnode/index.ts';
import { contractId } from '../../../../src/devnode/ids.ts';
import { parseSecretKey, type KeyPair } from '../../../../src/devnode/keys.ts';
import { callTx, createTx } from '../../../../src/devnode/contracts/txs.ts';
import type { BuiltTx, TxFields } from '../../../../src/devnode/tx-codec.ts';
import { fundGa } from '../../../support/ga-txs.ts';
import { mineGeneration, type Harness } from './harness.ts';

const FEE = 10n ** 15n;

/** A registrar deployed: its deployer, its contract id and account (`ak_`), and what submits transactions. */
export interface Registrar {
  readonly patron: KeyPair;
  readonly contract: string;
  readonly account: string;
  /** nonce is `k`'s next nonce, the pending transactions counted */
  nonce(k: KeyPair): number;
  /** submit signs `built` for the devnode's network and submits it: its hash */
  submit(built: BuiltTx): string;
  /** claim submits `k`'s NameClaimTx of `name` bidding `fee` (salt 0: a bid where an auction runs) */
  claim(k: KeyPair, name: string, fee: bigint): string;
  /** call submits the patron's call of the contract's `fn`, sending `amount` */
  call(fn: string, args: Parameters<typeof callTx>[4], amount?: bigint): string;
}

/**
 * deployRegistrar mines a key block, then a generation holding the patron's spends of 10^21 to each of `funded` and the
 * registrar's deployment.
 */
export async function deployRegistrar(h: Harness, funded: readonly KeyPair[]): Promise<Registrar> {
  const chain = h.devnode.chain;
  const patron = parseSecretKey(h.devnode.accounts[0]!.secretKey);
  const nonce = (k: KeyPair): number => (chain.pending.accounts.get(k.address)?.nonce ?? 0) + 1;
  const submit = (built: BuiltTx): string => chain.submit(signBuilt(chain.options.networkId, built)).hash;
  await h.devnode.mineKeyBlock();
  for (const k of funded) submit(fundGa(patron, k.address, 10n ** 21n, nonce(patron)));
  const deployNonce = nonce(patron);
  submit(createTx(patron, deployNonce, 'registrar', []));
  const contract = contractId(patron.address, deployNonce);
  await mineGeneration(h);
  return {
    patron,
    contract,
    account: reprefix(contract, 'ak'),
    nonce,
    submit,
    claim: (k, name, fee) =>
      submit({
        tx: {
          type: 'NameClaimTx',
          version: 2,
          account_id: k.address,
          name,
          name_salt: 0,
          name_fee: fee,
          fee: FEE,
          nonce: nonce(k),
        } satisfies TxFields,
        signers: [k],
      }),
    call: (fn, args, amount = 0n) => submit(callTx(patron, nonce(patron), contract, fn, args, amount)),
  };
}
