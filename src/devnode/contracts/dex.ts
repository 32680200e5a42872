/**
 * @module The æternity DEX run natively (dex-contracts-v2): wrapped AE, the factory that clones
 * pairs (PairCreated), constant-product pairs (PairMint, Sync, SwapTokens) and the router that moves
 * the caller's tokens through allowances. Pure over the world state.
 */
import { idBytes, withPrefix } from '../../chain/id-cache.ts';
import { AEX9_CORE_HANDLERS, ak, credit, debit, initToken, int, mintTokens, type Handler } from './aex9.ts';
import { address, NONE, option, tuple, UNIT, type FateValue, type FateVariant } from '../../chain/fate.ts';
import type { Frame } from './frame.ts';
import { moveAe, require } from './frame.ts';

const ct = (v: FateValue | undefined): string => withPrefix((v as { id: string }).id, 'ct');

/** WAE_HANDLERS: wrapped AE (Deposit/Withdrawal events; AE held by the contract backs the supply). */
export const WAE_HANDLERS: Record<string, Handler> = {
  ...AEX9_CORE_HANDLERS,
  init: (f) => {
    initToken(f, 'Wrapped Aeternity', 'WAE', 18n);
    return UNIT;
  },
  deposit: (f) => {
    f.set('supply', f.int('supply') + f.value);
    credit(f, f.caller, f.value);
    f.emit('Deposit', [f.caller, f.value]);
    return UNIT;
  },
  deposit_to: (f, [to]) => {
    f.set('supply', f.int('supply') + f.value);
    credit(f, ak(to), f.value);
    f.emit('Deposit', [f.caller, f.value]);
    f.emit('Transfer', [f.caller, ak(to), f.value]);
    return UNIT;
  },
  withdraw: (f, [amount]) => {
    require(int(amount) >= 0n, 'NON_NEGATIVE_VALUE_REQUIRED');
    debit(f, f.caller, int(amount));
    f.set('supply', f.int('supply') - int(amount));
    moveAe(f.env, f.account, f.caller, int(amount), 'Chain.spend');
    f.emit('Withdrawal', [f.caller, int(amount)]);
    return UNIT;
  },
};

/** sortTokens orders two tokens by address bytes, as the factory does. */
export function sortTokens(a: string, b: string): [string, string] {
  return Buffer.compare(Buffer.from(idBytes(a)), Buffer.from(idBytes(b))) < 0 ? [a, b] : [b, a];
}

/** CloneContract clones a native contract from inside a call: its id follows the creator's nonce. */
export type CloneContract = (f: Frame, kind: 'pair', init: readonly FateValue[]) => string;

/** factoryHandlers: pairs are created by `clone` (given by the engine, which owns contract creation). */
export function factoryHandlers(clone: CloneContract): Record<string, Handler> {
  return {
    init: (f, [feeToSetter]) => {
      f.set('fee_to_setter', ak(feeToSetter));
      return UNIT;
    },
    all_pairs_length: (f) => BigInt((f.get<FateValue[]>('pairs') ?? []).length),
    get_all_pairs: (f) => f.get<FateValue[]>('pairs') ?? [],
    get_pair: (f, [a, b]) => {
      const [t0, t1] = sortTokens(ct(a), ct(b));
      const pair = f.get<string>(`pair:${t0}:${t1}`);
      return option(pair === undefined ? undefined : address(pair));
    },
    create_pair: (f, [a, b, minLiquidity]) => {
      require(ct(a) !== ct(b), 'AedexV2Factory: IDENTICAL_ADDRESSES');
      const [t0, t1] = sortTokens(ct(a), ct(b));
      require(f.get(`pair:${t0}:${t1}`) === undefined, 'AedexV2Factory: PAIR_EXISTS');
      const pair = clone(f, 'pair', [address(f.self), address(t0), address(t1), minLiquidity ?? NONE, NONE]);
      f.set(`pair:${t0}:${t1}`, pair);
      const pairs = [address(pair), ...(f.get<FateValue[]>('pairs') ?? [])];
      f.set('pairs', pairs);
      f.emit('PairCreated', [withPrefix(t0, 'ak'), withPrefix(t1, 'ak'), withPrefix(pair, 'ak')], String(pairs.length));
      return address(pair);
    },
  };
}

const MINIMUM_LIQUIDITY = 1000n;

function sqrt(value: bigint): bigint {
  if (value < 2n) return value;
  let x = value;
  let y = (x + 1n) / 2n;
  while (y < x) {
    x = y;
    y = (x + value / x) / 2n;
  }
  return x;
}

/** tokenBalance asks a token for an account's balance (an internal call). */
function tokenBalance(f: Frame, token: string, account: string): bigint {
  const answer = f.call(token, 'balance', [address(account)]) as FateVariant;
  return answer.tag === 1 ? int(answer.values[0]) : 0n;
}

function updateReserves(f: Frame, balance0: bigint, balance1: bigint): void {
  f.set('reserve0', balance0);
  f.set('reserve1', balance1);
  f.emit('Sync', [balance0, balance1]);
}

/** PAIR_HANDLERS: a liquidity token over the reserves of two tokens (fee 0.3 %). */
export const PAIR_HANDLERS: Record<string, Handler> = {
  ...AEX9_CORE_HANDLERS,
  init: (f, [factory, token0, token1, minLiquidity]) => {
    initToken(f, 'AedexV2 Pair', 'AEDEX-V2', 18n);
    f.set('owner', f.account);
    f.set('factory', ct(factory));
    f.set('token0', ct(token0));
    f.set('token1', ct(token1));
    const min = minLiquidity as FateVariant | undefined;
    f.set('min_liquidity', min?.tag === 1 ? int(min.values[0]) : MINIMUM_LIQUIDITY);
    return UNIT;
  },
  owner: (f) => address(f.account),
  get_reserves: (f) => tuple(f.int('reserve0'), f.int('reserve1'), 0n),
  token0: (f) => address(f.get<string>('token0')!),
  token1: (f) => address(f.get<string>('token1')!),
  mint: (f, [to]) => {
    const [reserve0, reserve1] = [f.int('reserve0'), f.int('reserve1')];
    const balance0 = tokenBalance(f, f.get<string>('token0')!, f.account);
    const balance1 = tokenBalance(f, f.get<string>('token1')!, f.account);
    const [amount0, amount1] = [balance0 - reserve0, balance1 - reserve1];
    const supply = f.int('supply');
    let liquidity: bigint;
    if (supply === 0n) {
      const locked = f.int('min_liquidity');
      liquidity = sqrt(amount0 * amount1) - locked;
      mintTokens(f, f.account, locked);
      f.emit('LockLiquidity', [locked]);
    } else {
      const a = (amount0 * supply) / reserve0;
      const b = (amount1 * supply) / reserve1;
      liquidity = a < b ? a : b;
    }
    require(liquidity > 0n, 'AedexV2Pair: INSUFFICIENT_LIQUIDITY_MINTED');
    mintTokens(f, ak(to), liquidity);
    updateReserves(f, balance0, balance1);
    f.emit('PairMint', [f.caller, amount0, amount1]);
    return liquidity;
  },
  swap: (f, [out0, out1, to]) => {
    const [amount0Out, amount1Out] = [int(out0), int(out1)];
    require(amount0Out > 0n || amount1Out > 0n, 'AedexV2Pair: INSUFFICIENT_OUTPUT_AMOUNT');
    const [reserve0, reserve1] = [f.int('reserve0'), f.int('reserve1')];
    require(amount0Out < reserve0 && amount1Out < reserve1, 'AedexV2Pair: INSUFFICIENT_LIQUIDITY');
    const [token0, token1] = [f.get<string>('token0')!, f.get<string>('token1')!];
    if (amount0Out > 0n) f.call(token0, 'transfer', [to!, amount0Out]);
    if (amount1Out > 0n) f.call(token1, 'transfer', [to!, amount1Out]);
    const balance0 = tokenBalance(f, token0, f.account);
    const balance1 = tokenBalance(f, token1, f.account);
    const in0 = balance0 > reserve0 - amount0Out ? balance0 - (reserve0 - amount0Out) : 0n;
    const in1 = balance1 > reserve1 - amount1Out ? balance1 - (reserve1 - amount1Out) : 0n;
    require(in0 > 0n || in1 > 0n, 'AedexV2Pair: INSUFFICIENT_INPUT_AMOUNT');
    const adjusted0 = balance0 * 1000n - in0 * 3n;
    const adjusted1 = balance1 * 1000n - in1 * 3n;
    require(adjusted0 * adjusted1 >= reserve0 * reserve1 * 1_000_000n, 'AedexV2Pair: INSUFFICIENT_BALANCE');
    updateReserves(f, balance0, balance1);
    f.emit('SwapTokens', [f.caller, ak(to)], [in0, in1, amount0Out, amount1Out].join('|'));
    return UNIT;
  },
};

/** amountOut is what a pair pays for `amountIn` (0.3 % fee), as AedexV2Library.get_amount_out. */
export function amountOut(amountIn: bigint, reserveIn: bigint, reserveOut: bigint): bigint {
  require(amountIn > 0n, 'AedexV2Library: INSUFFICIENT_INPUT_AMOUNT');
  require(reserveIn > 0n && reserveOut > 0n, 'AedexV2Library: INSUFFICIENT_LIQUIDITY');
  const withFee = amountIn * 997n;
  return (withFee * reserveOut) / (reserveIn * 1000n + withFee);
}

function pairFor(f: Frame, a: string, b: string): string {
  const found = f.call(f.get<string>('factory')!, 'get_pair', [address(a), address(b)]) as FateVariant;
  require(found.tag === 1, 'AedexV2Router: PAIR_NOT_FOUND');
  return ct(found.values[0]);
}

function reservesFor(f: Frame, pair: string, input: string, output: string): [bigint, bigint] {
  const reserves = f.call(pair, 'get_reserves', []) as { items: readonly FateValue[] };
  const [r0, r1] = [int(reserves.items[0]), int(reserves.items[1])];
  return sortTokens(input, output)[0] === input ? [r0, r1] : [r1, r0];
}

/** swapPath computes the amounts along a path and swaps pair by pair; the first pair already holds the input. */
function swapPath(f: Frame, amountIn: bigint, path: string[]): bigint[] {
  require(path.length >= 2, 'AedexV2Library: INVALID_PATH');
  const pairs = path.slice(1).map((output, i) => pairFor(f, path[i]!, output));
  const amounts = [amountIn];
  for (let i = 0; i < pairs.length; i++) {
    const [reserveIn, reserveOut] = reservesFor(f, pairs[i]!, path[i]!, path[i + 1]!);
    amounts.push(amountOut(amounts[i]!, reserveIn, reserveOut));
  }
  return amounts;
}

function executeSwaps(f: Frame, amounts: bigint[], path: string[], to: FateValue): void {
  for (let i = 0; i + 1 < path.length; i++) {
    const [input, output] = [path[i]!, path[i + 1]!];
    const pair = pairFor(f, input, output);
    const out = amounts[i + 1]!;
    const [o0, o1] = sortTokens(input, output)[0] === input ? [0n, out] : [out, 0n];
    const next = i + 2 < path.length ? address(withPrefix(pairFor(f, output, path[i + 2]!), 'ak')) : to;
    f.call(pair, 'swap', [o0, o1, next, NONE]);
  }
}

/** ROUTER_HANDLERS: liquidity and swaps for the caller (who first gives the router allowances). */
export const ROUTER_HANDLERS: Record<string, Handler> = {
  init: (f, [factory, wae]) => {
    f.set('factory', ct(factory));
    f.set('wae', ct(wae));
    return UNIT;
  },
  factory: (f) => address(f.get<string>('factory')!),
  add_liquidity: (f, [tokenA, tokenB, desiredA, desiredB, minA, minB, to, minLiquidity]) => {
    const [a, b] = [ct(tokenA), ct(tokenB)];
    const factory = f.get<string>('factory')!;
    const existing = f.call(factory, 'get_pair', [address(a), address(b)]) as FateVariant;
    if (existing.tag === 0) f.call(factory, 'create_pair', [address(a), address(b), minLiquidity ?? NONE, NONE]);
    const pair = pairFor(f, a, b);
    const [reserveA, reserveB] = reservesFor(f, pair, a, b);
    let [amountA, amountB] = [int(desiredA), int(desiredB)];
    if (reserveA > 0n || reserveB > 0n) {
      const optimalB = (amountA * reserveB) / reserveA;
      if (optimalB <= amountB) amountB = optimalB;
      else amountA = (amountB * reserveA) / reserveB;
    }
    require(amountA >= int(minA), 'AedexV2Router: INSUFFICIENT_A_AMOUNT');
    require(amountB >= int(minB), 'AedexV2Router: INSUFFICIENT_B_AMOUNT');
    const pairAddress = address(withPrefix(pair, 'ak'));
    f.call(a, 'transfer_allowance', [address(f.caller), pairAddress, amountA]);
    f.call(b, 'transfer_allowance', [address(f.caller), pairAddress, amountB]);
    const liquidity = f.call(pair, 'mint', [to!]);
    return tuple(amountA, amountB, liquidity);
  },
  swap_exact_tokens_for_tokens: (f, [amountIn, amountOutMin, path, to]) => {
    const tokens = (path as FateValue[]).map(ct);
    const amounts = swapPath(f, int(amountIn), tokens);
    require(amounts.at(-1)! >= int(amountOutMin), 'AedexV2Router: INSUFFICIENT_OUTPUT_AMOUNT');
    const first = address(withPrefix(pairFor(f, tokens[0]!, tokens[1]!), 'ak'));
    f.call(tokens[0]!, 'transfer_allowance', [address(f.caller), first, amounts[0]!]);
    executeSwaps(f, amounts, tokens, to!);
    return amounts;
  },
  swap_exact_ae_for_tokens: (f, [amountOutMin, path, to]) => {
    const tokens = (path as FateValue[]).map(ct);
    require(tokens[0] === f.get<string>('wae'), 'AedexV2Router: INVALID_PATH');
    const amounts = swapPath(f, f.value, tokens);
    require(amounts.at(-1)! >= int(amountOutMin), 'AedexV2Router: INSUFFICIENT_OUTPUT_AMOUNT');
    f.call(tokens[0]!, 'deposit', [], f.value);
    const first = address(withPrefix(pairFor(f, tokens[0]!, tokens[1]!), 'ak'));
    f.call(tokens[0]!, 'transfer', [first, f.value]);
    executeSwaps(f, amounts, tokens, to!);
    return amounts;
  },
};
