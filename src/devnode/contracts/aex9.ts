/**
 * @module AEX-9 fungible tokens run natively: balances, allowances, mint and burn with the
 * standard's events and revert reasons (fungible-token-full). Wrapped AE and DEX pairs use the
 * same ledger. Pure over the world state.
 */
import { withPrefix } from '../../chain/id-cache.ts';
import { address, fateMap, option, tuple, UNIT, type FateTuple, type FateValue } from '../../chain/fate.ts';
import type { Frame } from './frame.ts';
import { require } from './frame.ts';

/** Handler runs one entrypoint with typed arguments. */
export type Handler = (f: Frame, args: readonly FateValue[]) => FateValue;

/** ak is the account form of an address argument (contracts hold tokens under their `ak_`). */
export const ak = (v: FateValue | undefined): string => withPrefix((v as { id: string }).id, 'ak');
export const int = (v: FateValue | undefined): bigint => v as bigint;

const nonNegative = (value: bigint): void => require(value >= 0n, 'NON_NEGATIVE_VALUE_REQUIRED');

/** balanceOf is an account's balance (undefined when it never held the token). */
export const balanceOf = (f: Frame, account: string): bigint | undefined => f.get<bigint>(`b:${account}`);

function setBalance(f: Frame, account: string, value: bigint): void {
  if (balanceOf(f, account) === undefined) f.push('holders', account);
  f.set(`b:${account}`, value);
}

/** credit mints or moves `value` into an account. */
export function credit(f: Frame, account: string, value: bigint): void {
  setBalance(f, account, (balanceOf(f, account) ?? 0n) + value);
}

/** debit takes `value` from an account, reverting when it has less. */
export function debit(f: Frame, account: string, value: bigint): void {
  const balance = balanceOf(f, account) ?? 0n;
  require(balance >= value, 'ACCOUNT_INSUFFICIENT_BALANCE');
  setBalance(f, account, balance - value);
}

/** transferTokens moves tokens and logs Transfer(from, to, value). */
export function transferTokens(f: Frame, from: string, to: string, value: bigint): void {
  nonNegative(value);
  debit(f, from, value);
  credit(f, to, value);
  f.emit('Transfer', [from, to, value]);
}

/** mintTokens adds supply to an account and logs Mint(account, value). */
export function mintTokens(f: Frame, account: string, value: bigint): void {
  nonNegative(value);
  f.set('supply', f.int('supply') + value);
  credit(f, account, value);
  f.emit('Mint', [account, value]);
}

/** mintUnlogged adds supply to an account as mintTokens does, but logs nothing (a token that breaks the standard). */
function mintUnlogged(f: Frame, account: string, value: bigint): void {
  nonNegative(value);
  f.set('supply', f.int('supply') + value);
  credit(f, account, value);
}

/** burnTokens removes supply from an account and logs Burn(account, value). */
export function burnTokens(f: Frame, account: string, value: bigint): void {
  nonNegative(value);
  debit(f, account, value);
  f.set('supply', f.int('supply') - value);
  f.emit('Burn', [account, value]);
}

const allowanceSlot = (from: string, spender: string): string => `a:${from}:${spender}`;

function setAllowance(f: Frame, from: string, spender: string, value: bigint): void {
  if (f.get(allowanceSlot(from, spender)) === undefined) f.push('allowed', tuple(address(from), address(spender)));
  f.set(allowanceSlot(from, spender), value);
  f.emit('Allowance', [from, spender, value]);
}

const allowanceOf = (f: Frame, from: string, spender: string): bigint | undefined =>
  f.get<bigint>(allowanceSlot(from, spender));

/** initToken sets a token's meta info and owner. */
export function initToken(f: Frame, name: string, symbol: string, decimals: bigint): void {
  nonNegative(decimals);
  f.set('meta', tuple(name, symbol, decimals));
  f.set('owner', f.caller);
  f.set('supply', 0n);
}

/** AEX9_CORE_HANDLERS: the base functions and the allowances extension. */
export const AEX9_CORE_HANDLERS: Record<string, Handler> = {
  meta_info: (f) => f.get('meta')!,
  total_supply: (f) => f.int('supply'),
  owner: (f) => address(f.get<string>('owner')!),
  balances: (f) => fateMap((f.get<string[]>('holders') ?? []).map((a) => [address(a), balanceOf(f, a)!] as const)),
  balance: (f, [a]) => option(balanceOf(f, ak(a))),
  transfer: (f, [to, value]) => {
    transferTokens(f, f.caller, ak(to), int(value));
    return UNIT;
  },
  allowances: (f) =>
    fateMap(
      (f.get<FateTuple[]>('allowed') ?? []).map((pair) => [
        pair,
        allowanceOf(f, ak(pair.items[0]), ak(pair.items[1]))!,
      ]),
    ),
  allowance: (f, [pair]) => {
    const [from, spender] = (pair as FateTuple).items;
    return option(allowanceOf(f, ak(from), ak(spender)));
  },
  allowance_for_caller: (f, [from]) => option(allowanceOf(f, ak(from), f.caller)),
  create_allowance: (f, [spender, value]) => {
    nonNegative(int(value));
    require(allowanceOf(f, f.caller, ak(spender)) === undefined, 'ALLOWANCE_ALREADY_EXISTENT');
    setAllowance(f, f.caller, ak(spender), int(value));
    return UNIT;
  },
  change_allowance: (f, [spender, change]) => {
    const current = allowanceOf(f, f.caller, ak(spender));
    require(current !== undefined, 'ALLOWANCE_NOT_EXISTENT');
    nonNegative(current + int(change));
    setAllowance(f, f.caller, ak(spender), current + int(change));
    return UNIT;
  },
  reset_allowance: (f, [spender]) => {
    require(allowanceOf(f, f.caller, ak(spender)) !== undefined, 'ALLOWANCE_NOT_EXISTENT');
    setAllowance(f, f.caller, ak(spender), 0n);
    return UNIT;
  },
  transfer_allowance: (f, [from, to, value]) => {
    const current = allowanceOf(f, ak(from), f.caller);
    require(current !== undefined, 'ALLOWANCE_NOT_EXISTENT');
    nonNegative(int(value));
    require(current >= int(value), 'ALLOWANCE_INSUFFICIENT');
    setAllowance(f, ak(from), f.caller, current - int(value));
    transferTokens(f, ak(from), ak(to), int(value));
    return UNIT;
  },
};

/** AEX9_HANDLERS: a mintable, burnable token with allowances (fungible-token-full). */
export const AEX9_HANDLERS: Record<string, Handler> = {
  ...AEX9_CORE_HANDLERS,
  init: (f, [name, decimals, symbol, initial]) => {
    initToken(f, name as string, symbol as string, int(decimals));
    const opening = initial as { tag: number; values: readonly FateValue[] };
    if (opening.tag === 1) mintTokens(f, f.caller, int(opening.values[0]));
    return UNIT;
  },
  mint: (f, [account, value]) => {
    require(f.caller === f.get<string>('owner'), 'ONLY_OWNER_CALL_ALLOWED');
    mintTokens(f, ak(account), int(value));
    return UNIT;
  },
  burn: (f, [value]) => {
    burnTokens(f, f.caller, int(value));
    return UNIT;
  },
};

/** AEX9_UNLOGGED_HANDLERS: the same token, but its owner's `mint` after creation logs no Mint event. */
export const AEX9_UNLOGGED_HANDLERS: Record<string, Handler> = {
  ...AEX9_HANDLERS,
  mint: (f, [account, value]) => {
    require(f.caller === f.get<string>('owner'), 'ONLY_OWNER_CALL_ALLOWED');
    mintUnlogged(f, ak(account), int(value));
    return UNIT;
  },
};
