/** @module The internal port's transaction builders: a JSON body to an unsigned `{tx}`, with the node's 400/404 reasons. */
import { minimumNameFee } from '../../chain/aens.ts';
import { encode, decode, isEncoded, reprefix, type Prefix } from '../../chain/encoding.ts';
import { isJsonObject, toBigInt, type Json } from '../../chain/json.ts';
import type { Chain } from '../chain.ts';
import { HttpError, ok, validationError, type Reply, type Route, type RouteRequest } from './http.ts';
import { contractId, nameValidationError } from '../ids.ts';
import { encodeTx, jsonInt, TxCodecError, type TxFields } from '../tx-codec.ts';

type Body = { [k: string]: Json };

function body(req: RouteRequest): Body {
  if (!isJsonObject(req.body)) throw validationError('body', 'invalid_body', 'expected a JSON object');
  return req.body;
}

function required(b: Body, key: string): Json {
  const value = b[key];
  if (value === undefined || value === null) throw validationError(key, 'missing_required_property');
  return value;
}

/** intField reads a non-negative integer (number, big integer or decimal string). */
function intField(b: Body, key: string, fallback?: bigint): number | bigint {
  const value = b[key];
  if ((value === undefined || value === null) && fallback !== undefined) return jsonInt(fallback);
  const raw = required(b, key);
  try {
    const v = toBigInt(raw);
    if (v < 0n) throw new RangeError('negative');
    return jsonInt(v);
  } catch {
    throw validationError(key, 'wrong_type', raw);
  }
}

function idField(b: Body, key: string, prefixes: Prefix[]): string {
  const value = required(b, key);
  if (!isEncoded(value, prefixes)) throw new HttpError(400, `Invalid hash: ${key}`);
  return value;
}

function textField(b: Body, key: string, fallback?: string): string {
  const value = b[key] ?? fallback;
  if (value === undefined) throw validationError(key, 'missing_required_property');
  if (typeof value !== 'string') throw validationError(key, 'wrong_type', value);
  if (isEncoded(value, ['cb'])) return Buffer.from(decode(value, ['cb']).bytes).toString('utf8');
  return value;
}

function ttlField(b: Body, key: string, deltaOnly: boolean): { type: string; value: number | bigint } {
  const value = required(b, key);
  if (!isJsonObject(value) || value.value === undefined) throw new HttpError(400, `Broken TTL for key ${key}`);
  if (value.type !== 'delta' && (deltaOnly || value.type !== 'block'))
    throw new HttpError(400, `Invalid TTL type for key ${key}`);
  let ttl: bigint;
  try {
    ttl = toBigInt(value.value);
  } catch {
    throw new HttpError(400, `Broken TTL for key ${key}`);
  }
  if (ttl < 0n) throw new HttpError(400, `Broken TTL for key ${key}`);
  return { type: value.type, value: jsonInt(ttl) };
}

function pointersField(b: Body): Json[] {
  const value = required(b, 'pointers');
  if (!Array.isArray(value)) throw new HttpError(400, 'Invalid pointers');
  return value.map((p) => {
    if (!isJsonObject(p) || typeof p.key !== 'string' || !isEncoded(p.id, ['ak', 'ok', 'ct', 'ch']))
      throw new HttpError(400, 'Invalid pointers');
    return { key: p.key, id: p.id };
  });
}

/** common adds fee, ttl and the signer's next nonce (from the mempool view) unless the body gives one. */
function common(chain: Chain, b: Body, signerKey: string, signer: string): Body {
  let nonce: number | bigint;
  if (b.nonce !== undefined) nonce = intField(b, 'nonce');
  else {
    const account = chain.pending.accounts.get(signer.startsWith('ak_') ? signer : reprefix(signer, 'ak'));
    if (!account) throw new HttpError(404, `Account of ${signerKey} not found`);
    nonce = account.nonce + 1;
  }
  return { fee: intField(b, 'fee'), ttl: intField(b, 'ttl', 0n), nonce };
}

/** unsigned serialises the built transaction; what the field checks let through but RLP cannot hold is a 400. */
function unsigned(tx: TxFields, extra: Body = {}): Reply {
  try {
    return ok({ tx: encode('tx', encodeTx(tx)), ...extra });
  } catch (err) {
    if (err instanceof TxCodecError || err instanceof RangeError)
      throw new HttpError(400, `Invalid transaction: ${err.message}`);
    throw err;
  }
}

function spend(chain: Chain, b: Body): Reply {
  const sender = idField(b, 'sender_id', ['ak']);
  const payload =
    typeof b.payload === 'string' && isEncoded(b.payload, ['ba'])
      ? b.payload
      : encode('ba', Buffer.from(textField(b, 'payload', ''), 'utf8'));
  return unsigned({
    type: 'SpendTx',
    version: 1,
    sender_id: sender,
    recipient_id: idField(b, 'recipient_id', ['ak', 'ok', 'ct', 'nm']),
    amount: intField(b, 'amount'),
    payload,
    ...common(chain, b, 'sender_id', sender),
  });
}

function oracleRegister(chain: Chain, b: Body): Reply {
  const account = idField(b, 'account_id', ['ak']);
  return unsigned({
    type: 'OracleRegisterTx',
    version: 1,
    account_id: account,
    query_format: textField(b, 'query_format'),
    response_format: textField(b, 'response_format'),
    query_fee: intField(b, 'query_fee'),
    oracle_ttl: ttlField(b, 'oracle_ttl', false),
    abi_version: intField(b, 'abi_version', 0n),
    ...common(chain, b, 'account_id', account),
  });
}

function oracleExtend(chain: Chain, b: Body): Reply {
  const oracle = idField(b, 'oracle_id', ['ok']);
  return unsigned({
    type: 'OracleExtendTx',
    version: 1,
    oracle_id: oracle,
    oracle_ttl: ttlField(b, 'oracle_ttl', true),
    ...common(chain, b, 'oracle_id', oracle),
  });
}

function oracleQuery(chain: Chain, b: Body): Reply {
  const sender = idField(b, 'sender_id', ['ak']);
  const oracle = idField(b, 'oracle_id', ['ok', 'nm']);
  if (oracle.startsWith('ok_') && !chain.pending.oracles.get(oracle))
    throw new HttpError(404, 'Oracle address for key oracle_id not found');
  return unsigned({
    type: 'OracleQueryTx',
    version: 1,
    sender_id: sender,
    oracle_id: oracle,
    query: textField(b, 'query'),
    query_fee: intField(b, 'query_fee'),
    query_ttl: ttlField(b, 'query_ttl', false),
    response_ttl: ttlField(b, 'response_ttl', true),
    ...common(chain, b, 'sender_id', sender),
  });
}

/** oracleRespond accepts a body without `oracle_id` (the seed's form): the query names its oracle. */
function oracleRespond(chain: Chain, b: Body): Reply {
  const queryId = idField(b, 'query_id', ['oq']);
  const query = chain.pending.queries.get(queryId);
  if (!query) throw new HttpError(404, 'Oracle query for key query_id not found');
  const oracle = b.oracle_id === undefined ? query.oracleId : idField(b, 'oracle_id', ['ok']);
  return unsigned({
    type: 'OracleRespondTx',
    version: 1,
    oracle_id: oracle,
    query_id: queryId,
    response: textField(b, 'response'),
    response_ttl: ttlField(b, 'response_ttl', true),
    ...common(chain, b, 'oracle_id', oracle),
  });
}

function namePreclaim(chain: Chain, b: Body): Reply {
  const account = idField(b, 'account_id', ['ak']);
  return unsigned({
    type: 'NamePreclaimTx',
    version: 1,
    account_id: account,
    commitment_id: idField(b, 'commitment_id', ['cm']),
    ...common(chain, b, 'account_id', account),
  });
}

/** plainName accepts `foo.chain` or the seed's `nm_`-encoded name bytes. */
function plainName(b: Body): string {
  const value = required(b, 'name');
  if (typeof value !== 'string') throw validationError('name', 'wrong_type', value);
  const name = isEncoded(value, ['nm']) ? Buffer.from(decode(value, ['nm']).bytes).toString('utf8') : value;
  const invalid = nameValidationError(name);
  if (invalid) throw new HttpError(400, `Name validation failed with a reason: ${invalid}`);
  return name.toLowerCase();
}

function nameClaim(chain: Chain, b: Body): Reply {
  const account = idField(b, 'account_id', ['ak']);
  const name = plainName(b);
  return unsigned({
    type: 'NameClaimTx',
    version: 2,
    account_id: account,
    name,
    name_salt: intField(b, 'name_salt'),
    name_fee: intField(b, 'name_fee', minimumNameFee(name)),
    ...common(chain, b, 'account_id', account),
  });
}

function nameUpdate(chain: Chain, b: Body): Reply {
  const account = idField(b, 'account_id', ['ak']);
  return unsigned({
    type: 'NameUpdateTx',
    version: 1,
    account_id: account,
    name_id: idField(b, 'name_id', ['nm']),
    name_ttl: intField(b, 'name_ttl'),
    pointers: pointersField(b),
    client_ttl: intField(b, 'client_ttl', 0n),
    ...common(chain, b, 'account_id', account),
  });
}

function nameTransfer(chain: Chain, b: Body): Reply {
  const account = idField(b, 'account_id', ['ak']);
  return unsigned({
    type: 'NameTransferTx',
    version: 1,
    account_id: account,
    name_id: idField(b, 'name_id', ['nm']),
    recipient_id: idField(b, 'recipient_id', ['ak', 'nm']),
    ...common(chain, b, 'account_id', account),
  });
}

function nameRevoke(chain: Chain, b: Body): Reply {
  const account = idField(b, 'account_id', ['ak']);
  return unsigned({
    type: 'NameRevokeTx',
    version: 1,
    account_id: account,
    name_id: idField(b, 'name_id', ['nm']),
    ...common(chain, b, 'account_id', account),
  });
}

function contractCreate(chain: Chain, b: Body): Reply {
  const owner = idField(b, 'owner_id', ['ak']);
  const fields = common(chain, b, 'owner_id', owner);
  return unsigned(
    {
      type: 'ContractCreateTx',
      version: 1,
      owner_id: owner,
      code: idField(b, 'code', ['cb']),
      vm_version: intField(b, 'vm_version'),
      abi_version: intField(b, 'abi_version'),
      deposit: intField(b, 'deposit'),
      amount: intField(b, 'amount'),
      gas: intField(b, 'gas'),
      gas_price: intField(b, 'gas_price'),
      call_data: idField(b, 'call_data', ['cb']),
      ...fields,
    },
    { contract_id: contractId(owner, toBigInt(fields.nonce!)) },
  );
}

function contractCall(chain: Chain, b: Body): Reply {
  const caller = idField(b, 'caller_id', ['ak']);
  return unsigned({
    type: 'ContractCallTx',
    version: 1,
    caller_id: caller,
    contract_id: idField(b, 'contract_id', ['ct', 'nm']),
    abi_version: intField(b, 'abi_version'),
    amount: intField(b, 'amount'),
    gas: intField(b, 'gas'),
    gas_price: intField(b, 'gas_price'),
    call_data: idField(b, 'call_data', ['cb']),
    ...common(chain, b, 'caller_id', caller),
  });
}

function channelCreate(chain: Chain, b: Body): Reply {
  const initiator = idField(b, 'initiator_id', ['ak']);
  return unsigned({
    type: 'ChannelCreateTx',
    version: 2,
    initiator_id: initiator,
    initiator_amount: intField(b, 'initiator_amount'),
    responder_id: idField(b, 'responder_id', ['ak']),
    responder_amount: intField(b, 'responder_amount'),
    channel_reserve: intField(b, 'channel_reserve'),
    lock_period: intField(b, 'lock_period'),
    delegate_ids: { initiator: [], responder: [] },
    state_hash: idField(b, 'state_hash', ['st']),
    ...common(chain, b, 'initiator_id', initiator),
  });
}

function channelCloseMutual(chain: Chain, b: Body): Reply {
  const from = idField(b, 'from_id', ['ak']);
  return unsigned({
    type: 'ChannelCloseMutualTx',
    version: 1,
    channel_id: idField(b, 'channel_id', ['ch']),
    from_id: from,
    initiator_amount_final: intField(b, 'initiator_amount_final'),
    responder_amount_final: intField(b, 'responder_amount_final'),
    ...common(chain, b, 'from_id', from),
  });
}

/** channelTx builds the channel transactions after create: the shared fields plus each type's own. */
function channelTx(type: string, party: 'from_id' | 'to_id', own: (b: Body) => Body) {
  return (chain: Chain, b: Body): Reply => {
    const from = idField(b, party, ['ak']);
    return unsigned({
      type,
      version: 1,
      channel_id: idField(b, 'channel_id', ['ch']),
      [party]: from,
      ...own(b),
      ...common(chain, b, party, from),
    });
  };
}

const withState = (b: Body): Body => ({
  amount: intField(b, 'amount'),
  state_hash: idField(b, 'state_hash', ['st']),
  round: intField(b, 'round'),
});
const withPayload = (b: Body): Body => ({ payload: idField(b, 'payload', ['tx']) });
const withPoi = (b: Body): Body => ({ payload: idField(b, 'payload', ['tx']), poi: idField(b, 'poi', ['pi']) });
const withFinals = (b: Body): Body => ({
  initiator_amount_final: intField(b, 'initiator_amount_final'),
  responder_amount_final: intField(b, 'responder_amount_final'),
});

const BUILDERS: readonly [string, (chain: Chain, b: Body) => Reply][] = [
  ['/v2/debug/transactions/spend', spend],
  ['/v2/debug/oracles/register', oracleRegister],
  ['/v2/debug/oracles/oracle', oracleRegister],
  ['/v2/debug/oracles/extend', oracleExtend],
  ['/v2/debug/oracles/query', oracleQuery],
  ['/v2/debug/oracles/respond', oracleRespond],
  ['/v2/debug/names/preclaim', namePreclaim],
  ['/v2/debug/names/claim', nameClaim],
  ['/v2/debug/names/update', nameUpdate],
  ['/v2/debug/names/transfer', nameTransfer],
  ['/v2/debug/names/revoke', nameRevoke],
  ['/v2/debug/contracts/create', contractCreate],
  ['/v2/debug/contracts/call', contractCall],
  ['/v2/debug/channels/create', channelCreate],
  ['/v2/debug/channels/close/mutual', channelCloseMutual],
  ['/v2/debug/channels/deposit', channelTx('ChannelDepositTx', 'from_id', withState)],
  ['/v2/debug/channels/withdraw', channelTx('ChannelWithdrawTx', 'to_id', withState)],
  ['/v2/debug/channels/snapshot/solo', channelTx('ChannelSnapshotSoloTx', 'from_id', withPayload)],
  ['/v2/debug/channels/close/solo', channelTx('ChannelCloseSoloTx', 'from_id', withPoi)],
  ['/v2/debug/channels/slash', channelTx('ChannelSlashTx', 'from_id', withPoi)],
  ['/v2/debug/channels/settle', channelTx('ChannelSettleTx', 'from_id', withFinals)],
];

/** builderRoutes are the POST builders of the internal port (both register paths: the seed's and the node's). */
export function builderRoutes(chain: Chain): Route[] {
  return BUILDERS.map(([path, build]) => ({
    method: 'POST' as const,
    path,
    handler: (req: RouteRequest) => build(chain, body(req)),
  }));
}
