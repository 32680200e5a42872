/**
 * @module ae_mdw's GraphQL object types over what the chain holds (1.107, field for field as its schema names them),
 * each over the REST answer of the same resource: names, tokens, channels, contracts, oracles, DEX swaps.
 */
import { shapeType } from './shape-types.ts';
import * as aex141 from '../../../shapes/v3/shapes-aex141.ts';
import * as aex9 from '../../../shapes/v3/shapes-aex9.ts';
import { CHANNEL, CHANNEL_UPDATE } from '../../../shapes/v3/shapes-channels.ts';
import { CONTRACT, CONTRACT_CALL, CONTRACT_LOG } from '../../../shapes/v3/shapes-contracts.ts';
import { DEX_SWAP } from '../../../shapes/v3/shapes-dex.ts';
import { AUCTION, NAME, NAME_EVENT, NAME_HISTORY, POINTEE } from '../../../shapes/v3/shapes-names.ts';
import { ORACLE, ORACLE_EXTEND, ORACLE_QUERY, ORACLE_RESPONSE } from '../../../shapes/v3/shapes-oracles.ts';

export const Name = shapeType(NAME);
export const NameClaim = shapeType(NAME_EVENT, {}, 'NameClaim');
export const NameUpdate = shapeType(NAME_EVENT, {}, 'NameUpdate');
export const NameTransfer = shapeType(NAME_EVENT, {}, 'NameTransfer');
export const NameHistory = shapeType(NAME_HISTORY);
export const Auction = shapeType(AUCTION);
export const Pointee = shapeType(POINTEE);

export const Aex9Contract = shapeType(aex9.AEX9_TOKEN);
export const Aex9ContractBalance = shapeType(aex9.AEX9_CONTRACT_BALANCE);
export const Aex9BalanceHistoryItem = shapeType(aex9.AEX9_BALANCE_HISTORY_ITEM);
export const Aex9Balance = shapeType(aex9.AEX9_ACCOUNT_BALANCE);
export const Aex9AccountBalance = shapeType(aex9.AEX9_BALANCE);
export const Aex9Transfer = shapeType(aex9.AEX9_TRANSFER);

export const Aex141Contract = shapeType(aex141.AEX141_COLLECTION);
export const Aex141Transfer = shapeType(aex141.AEX141_TRANSFER);
export const Aex141Token = shapeType(aex141.AEX141_TOKEN);
export const Aex141TokenWithMetadata = shapeType(aex141.AEX141_TOKEN_DETAIL);
export const Aex141Template = shapeType(aex141.AEX141_TEMPLATE);
export const Aex141TemplateToken = shapeType(aex141.AEX141_TEMPLATE_TOKEN);

export const Channel = shapeType(CHANNEL);
export const ChannelUpdate = shapeType(CHANNEL_UPDATE);

export const Contract = shapeType(CONTRACT);
export const ContractLog = shapeType(CONTRACT_LOG);
export const ContractCall = shapeType(CONTRACT_CALL);

export const Oracle = shapeType(ORACLE);
export const OracleResponse = shapeType(ORACLE_RESPONSE);
// the query's response as an object of its own
export const OracleQuery = shapeType(ORACLE_QUERY, { response: { type: OracleResponse } });
export const OracleExtend = shapeType(ORACLE_EXTEND);

export const Swap = shapeType(DEX_SWAP);
