/** @module The shape tables of ae_mdw's state channels and their updates (resources/channels.ts). */
import { big, bool, id, int, obj, only, shape, str } from '../shape-table.ts';

export const CHANNEL = shape(
  { openapi: 'Channel', graphql: ['Channel'] },
  {
    channel: id('ch'),
    active: bool,
    amount: big,
    channel_reserve: big,
    initiator: str,
    responder: str,
    last_updated_height: int,
    last_updated_tx_hash: str,
    last_updated_tx_type: str,
    updates_count: int,
    state_hash: only('graphql', str),
    last_updated_time: only('graphql', int),
    delegate_ids: only('graphql', obj),
    initiator_amount: only('graphql', big),
    lock_period: only('graphql', int),
    locked_until: only('graphql', int),
    responder_amount: only('graphql', big),
    round: only('graphql', int),
    solo_round: only('graphql', int),
  },
);

export const CHANNEL_UPDATE = shape(
  { openapi: 'ChannelUpdate', graphql: ['ChannelUpdate'] },
  {
    channel: id('ch'),
    tx_type: str,
    block_hash: id('mh'),
    source_tx_hash: id('th'),
    source_tx_type: str,
    tx: obj,
  },
);
