/**
 * @module AEX-141 NFT collections run natively: unique mints and template editions, transfers,
 * approvals and burns with the standard's events (CollectionTemplateEditionNFTs plus `mint`).
 * Receivers are not called back (no contract holds NFTs here). Pure over the world state.
 */
import { ak, int, type Handler } from './aex9.ts';
import {
  address,
  fateMap,
  option,
  tuple,
  UNIT,
  type FateTuple,
  type FateValue,
  type FateVariant,
} from '../../chain/fate.ts';
import type { Frame } from './frame.ts';
import { require } from './frame.ts';

/** metadata_type MAP (of URL | OBJECT_ID | MAP) and template_metadata_type T_MAP (of T_URL | T_MAP). */
const METADATA_TYPE_MAP: FateVariant = { kind: 'variant', arities: [0, 0, 0], tag: 2, values: [] };
const TEMPLATE_TYPE_MAP: FateVariant = { kind: 'variant', arities: [0, 0], tag: 1, values: [] };

/** metadataMap is `MetadataMap(map)` of the `metadata` datatype. */
export const metadataMap = (entries: Record<string, string>): FateVariant => ({
  kind: 'variant',
  arities: [1, 1],
  tag: 1,
  values: [fateMap(Object.entries(entries))],
});

const ownerOf = (f: Frame, token: bigint): string | undefined => f.get<string>(`o:${token}`);

function onlyOwner(f: Frame): void {
  require(f.caller === f.get<string>('owner'), 'ONLY_CONTRACT_OWNER_CALL_ALLOWED');
}

function give(f: Frame, to: string, token: bigint): void {
  f.set(`o:${token}`, to);
  f.set(`n:${to}`, f.int(`n:${to}`) + 1n);
  f.push(`t:${to}`, token);
}

function take(f: Frame, from: string, token: bigint): void {
  f.set(`n:${from}`, f.int(`n:${from}`) - 1n);
  f.set(
    `t:${from}`,
    (f.get<bigint[]>(`t:${from}`) ?? []).filter((t) => t !== token),
  );
  f.env.state.contractStore.delete(`${f.self}/ap:${token}`);
}

function mintToken(f: Frame, to: string, metadata: FateValue | undefined): bigint {
  const token = f.int('counter');
  f.set('counter', token + 1n);
  f.set('supply', f.int('supply') + 1n);
  give(f, to, token);
  if (metadata !== undefined) f.set(`m:${token}`, metadata);
  return token;
}

const isOperator = (f: Frame, owner: string, operator: string): boolean =>
  f.get<boolean>(`op:${owner}:${operator}`) === true;

function authorizedOwner(f: Frame, token: bigint): string {
  const owner = ownerOf(f, token);
  require(owner !== undefined, 'TOKEN_NOT_EXISTS');
  require(owner === f.caller ||
    f.get<string>(`ap:${token}`) === f.caller ||
    isOperator(f, owner, f.caller), 'ONLY_OWNER_APPROVED_OR_OPERATOR_CALL_ALLOWED');
  return owner;
}

function moveToken(f: Frame, from: string, to: string, token: bigint): void {
  require(from !== to, 'SENDER_MUST_NOT_BE_RECEIVER');
  take(f, from, token);
  give(f, to, token);
  f.emit('Transfer', [from, to, token]);
}

/** AEX141_HANDLERS: the collection's entrypoints. */
export const AEX141_HANDLERS: Record<string, Handler> = {
  init: (f, [name, symbol, templateLimit]) => {
    f.set('meta', tuple(name!, symbol!, option(undefined), METADATA_TYPE_MAP));
    f.set('owner', f.caller);
    f.set('template_limit', int(templateLimit));
    f.emit('TemplateLimit', [int(templateLimit)]);
    return UNIT;
  },
  meta_info: (f) => f.get('meta')!,
  metadata: (f, [token]) => option(f.get(`m:${int(token)}`)),
  total_supply: (f) => f.int('supply'),
  balance: (f, [owner]) => option(f.get<bigint>(`n:${ak(owner)}`)),
  owner: (f, [token]) => {
    const owner = ownerOf(f, int(token));
    return option(owner === undefined ? undefined : address(owner));
  },
  transfer: (f, [to, token]) => {
    moveToken(f, authorizedOwner(f, int(token)), ak(to), int(token));
    return UNIT;
  },
  transfer_to_contract: (f, [token]) => {
    const owner = ownerOf(f, int(token));
    require(owner === f.env.origin, 'ONLY_OWNER_CALL_ALLOWED');
    moveToken(f, owner, f.caller, int(token));
    return UNIT;
  },
  approve: (f, [approved, token, enabled]) => {
    const owner = ownerOf(f, int(token));
    require(owner === f.caller || (owner !== undefined && isOperator(f, owner, f.caller)), 'ONLY_OWNER_OR_OPERATOR');
    if (enabled === true) f.set(`ap:${int(token)}`, ak(approved));
    else f.env.state.contractStore.delete(`${f.self}/ap:${int(token)}`);
    f.emit('Approval', [f.caller, ak(approved), int(token)], String(enabled));
    return UNIT;
  },
  approve_all: (f, [operator, enabled]) => {
    f.set(`op:${f.caller}:${ak(operator)}`, enabled === true);
    f.emit('ApprovalForAll', [f.caller, ak(operator)], String(enabled));
    return UNIT;
  },
  get_approved: (f, [token]) => {
    const approved = f.get<string>(`ap:${int(token)}`);
    return option(approved === undefined ? undefined : address(approved));
  },
  is_approved: (f, [token, a]) => f.get<string>(`ap:${int(token)}`) === ak(a),
  is_approved_for_all: (f, [owner, operator]) => isOperator(f, ak(owner), ak(operator)),
  mint: (f, [to, metadata]) => {
    onlyOwner(f);
    const given = metadata as FateVariant;
    const token = mintToken(f, ak(to), given.tag === 1 ? given.values[0] : undefined);
    f.emit('Mint', [ak(to), token]);
    return token;
  },
  burn: (f, [token]) => {
    const owner = ownerOf(f, int(token));
    require(owner === f.caller, 'ONLY_OWNER_CALL_ALLOWED');
    take(f, owner, int(token));
    f.env.state.contractStore.delete(`${f.self}/o:${int(token)}`);
    f.env.state.contractStore.delete(`${f.self}/m:${int(token)}`);
    f.set('supply', f.int('supply') - 1n);
    f.emit('Burn', [owner, int(token)]);
    return UNIT;
  },
  template_metadata_type: () => TEMPLATE_TYPE_MAP,
  template: (f, [id]) => option(f.get(`tpl:${int(id)}`)),
  template_supply: (f) => f.int('template_supply'),
  template_limit: (f) => f.int('template_limit'),
  create_template: (f, [metadata, editionLimit]) => {
    onlyOwner(f);
    require((metadata as FateVariant).tag === 1, 'METADATA_TYPE_NOT_ALLOWED');
    const id = f.int('template_counter');
    const limit = editionLimit as FateVariant;
    if (limit.tag === 1) {
      require(int(limit.values[0]) > 0n, 'EDITION_LIMIT_INVALID');
      f.emit('EditionLimit', [id, int(limit.values[0])]);
    }
    require(f.int('template_supply') < f.int('template_limit'), 'TEMPLATE_LIMIT_REACHED');
    f.set('template_counter', id + 1n);
    f.set('template_supply', f.int('template_supply') + 1n);
    f.set(`tpl:${id}`, tuple(metadata!, limit, 0n));
    f.emit('TemplateCreation', [id]);
    return id;
  },
  delete_template: (f, [id]) => {
    onlyOwner(f);
    const template = f.get<FateTuple>(`tpl:${int(id)}`);
    require(template !== undefined, 'TEMPLATE_ID_NOT_EXISTS');
    require(template.items[2] === 0n, 'TEMPLATE_DELETION_NOT_ALLOWED');
    f.env.state.contractStore.delete(`${f.self}/tpl:${int(id)}`);
    f.set('template_supply', f.int('template_supply') - 1n);
    f.emit('TemplateDeletion', [int(id)]);
    return UNIT;
  },
  template_mint: (f, [to, id]) => {
    onlyOwner(f);
    const template = f.get<FateTuple>(`tpl:${int(id)}`);
    require(template !== undefined, 'TEMPLATE_ID_NOT_EXISTS');
    const [metadata, limit, supply] = template.items as [FateValue, FateVariant, bigint];
    require(limit.tag === 0 || supply < int(limit.values[0]), 'EDITION_LIMIT_EXCEEDED');
    const serial = supply + 1n;
    const token = mintToken(f, ak(to), metadataMap({ template_id: String(int(id)), edition_serial: String(serial) }));
    f.set(`tpl:${int(id)}`, tuple(metadata, limit, serial));
    f.emit('TemplateMint', [ak(to), int(id), token], String(serial));
    return token;
  },
  decrease_template_limit: (f, [newLimit]) => {
    onlyOwner(f);
    const old = f.int('template_limit');
    require(int(newLimit) < old && int(newLimit) >= f.int('template_supply'), 'TEMPLATE_LIMIT_INVALID');
    f.set('template_limit', int(newLimit));
    f.emit('TemplateLimitDecrease', [old, int(newLimit)]);
    return UNIT;
  },
  get_owned_tokens: (f, [owner]) => f.get<bigint[]>(`t:${ak(owner)}`) ?? [],
};
