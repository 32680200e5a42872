/**
 * @module The generator's makers of the made-up type (made-up-tx.ts), behind the `madeUpTxs` flag (tests only).
 */
import { MADE_UP_TX_TYPE, madeUpTxBytes } from '../rules/made-up-tx.ts';
import type { TrafficKit, WeightedMaker } from './kit.ts';
import type { BuiltTx, TxFields } from '../tx-codec.ts';

/** madeUpMakers: one maker of the type, its amount beyond 2^53 (a middleware keeps it exact). */
export function madeUpMakers(kit: TrafficKit): WeightedMaker[] {
  const make = (): BuiltTx => {
    const owner = kit.account();
    const tx: TxFields = {
      type: MADE_UP_TX_TYPE,
      version: 1,
      owner_id: owner.address,
      amount: 2n ** 60n + BigInt(kit.rng.uint32()),
      fee: kit.fee(),
      nonce: kit.nonce(owner),
    };
    return { tx, signers: [owner], bytes: madeUpTxBytes(tx) };
  };
  return [[2, make]];
}
