/**
 * @module The names registrar run natively: a contract that acts on names as a Sophia contract does through AENS
 * (claim with salt 0, update, transfer, revoke, for itself), each operation applied by the naming rules the engine
 * is handed and reported as the node's `AENS.*` event with the transaction it amounts to (aefa_chain_api
 * tx_event_data: fee and nonce 0). Pure over the world state.
 */
import { claimMaxExpiration } from '../../chain/aens.ts';
import { encode } from '../../chain/encoding.ts';
import type { Json } from '../../chain/json.ts';
import { UNIT, type FateValue } from '../../chain/fate.ts';
import { nameHash } from '../ids.ts';
import { PROTOCOL_VERSION } from '../store/blocks.ts';
import type { Handler } from './aex9.ts';
import { ak } from './aex9.ts';
import { charge, FateError, GAS, type AensOperation, type Frame } from './frame.ts';

/** The node's name_claim_preclaim_delta: the `ttl` a contract's NameClaimTx event carries. */
const PRECLAIM_DELTA = 1;

/** aens applies name transaction `tx` as the contract and reports its event with `info`. */
function aens(f: Frame, type: AensOperation['type'], tx: { [key: string]: Json }, info: { [key: string]: Json }): void {
  charge(f.env, GAS.write);
  if (!f.env.names) throw new FateError(`${type} is not available here`);
  f.env.names(f.env.state, tx, { height: f.env.height, generation: f.env.generation });
  f.env.events.push({ type, info });
}

const text = (v: FateValue | undefined): string => v as string;
const nameId = (name: string): string => nameHash(name.toLowerCase());

export const REGISTRAR_HANDLERS: Record<string, Handler> = {
  init: () => UNIT,
  claim(f, [name]) {
    const fields = { account_id: f.account, name: text(name), name_salt: 0, name_fee: f.value, fee: 0, nonce: 0 };
    aens(f, 'AENS.claim', { type: 'NameClaimTx', ...fields }, { ...fields, ttl: PRECLAIM_DELTA });
    return UNIT;
  },
  update(f, [name, target]) {
    const ttl = claimMaxExpiration(PROTOCOL_VERSION);
    const pointers = [{ key: 'account_pubkey', id: ak(target) }];
    const head = { account_id: f.account, name_id: nameId(text(name)), fee: 0, nonce: 0 };
    aens(
      f,
      'AENS.update',
      { type: 'NameUpdateTx', ...head, name_ttl: ttl, pointers, client_ttl: 0 },
      {
        ...head,
        // an AENS.update's event carries the expiry (the height plus the relative TTL), where a NameUpdateTx has the TTL
        name_ttl: f.env.height + ttl,
        pointers: pointers.map((p) => ({ ...p, encoded_key: encode('ba', Buffer.from(p.key, 'utf8')) })),
        client_ttl: 0,
        ttl: 0,
      },
    );
    return UNIT;
  },
  transfer(f, [name, to]) {
    const fields = { account_id: f.account, name_id: nameId(text(name)), recipient_id: ak(to), fee: 0, nonce: 0 };
    aens(f, 'AENS.transfer', { type: 'NameTransferTx', ...fields }, { ...fields, ttl: 0 });
    return UNIT;
  },
  revoke(f, [name]) {
    const fields = { account_id: f.account, name_id: nameId(text(name)), fee: 0, nonce: 0 };
    aens(f, 'AENS.revoke', { type: 'NameRevokeTx', ...fields }, { ...fields, ttl: 0 });
    return UNIT;
  },
};
