/**
 * @module A workaround for a hang in the SDK's Middleware client, applied before any test uses it.
 *
 * The SDK's generated models make `OffChainUpdate` (the `update` of a ChannelForceProgressTx) polymorphic on `op`
 * with one discriminator only, `OffChainUpdate.OffChainUpdate`. @azure/core-client's getIndexDiscriminator looks
 * an unknown `op` (every real one: OffChainTransfer, OffChainCallContract, …) up by walking the discriminators
 * whose uber parent is the current name, and that entry names itself, so the walk never ends: the client spins
 * forever on any answer that holds a force-progress transaction, from ae_mdw as from us. Registering the node's
 * `op` values as the same model ends the lookup at once; the answer is deserialized as the SDK models it.
 */
import * as mappers from '../../../node_modules/@aeternity/aepp-sdk/es/apis/middleware/models/mappers.js';

const OFF_CHAIN_OPS = [
  'OffChainTransfer',
  'OffChainDeposit',
  'OffChainWithdrawal',
  'OffChainNewContract',
  'OffChainCallContract',
  'OffChainMeta',
];

const discriminators = mappers.discriminators as Record<string, unknown>;
for (const op of OFF_CHAIN_OPS) discriminators[`OffChainUpdate.${op}`] = mappers.OffChainUpdate;
