/**
 * @module The generator's token traffic: deploys AEX-9 tokens (different decimals), wrapped AE,
 * a DEX (pair model, factory, router) and AEX-141 collections with templates, then moves them between
 * accounts: transfers, mints, burns, allowances, NFT mints, template mints, transfers, approvals
 * and burns, liquidity and swaps through the router (calls made by contracts); and a names registrar that claims,
 * points, transfers and revokes names through AENS (names acted on by a contract). Reads the pending state to build
 * calls that succeed.
 */
import { withPrefix } from '../../chain/id-cache.ts';
import type { Chain } from '../chain.ts';
import { contractId } from '../ids.ts';
import type { KeyPair } from '../keys.ts';
import { Random } from '../random.ts';
import type { BuiltTx } from '../tx-codec.ts';
import { metadataMap } from '../contracts/aex141.ts';
import { sortTokens } from '../contracts/dex.ts';
import { address, NONE, some, type FateTuple, type FateValue } from '../../chain/fate.ts';
import { callTx, createTx } from '../contracts/txs.ts';
import type { ContractKind } from '../contracts/standards.ts';
import { minimumNameFee } from '../../chain/aens.ts';
import { nameStatus } from '../rules/common.ts';
import { nameHash } from '../ids.ts';

/** TOKENS deployed by the generator: name, symbol, decimals, initial supply of the owner. */
const TOKENS: readonly [string, string, bigint, bigint][] = [
  ['Devnode Gold', 'GOLD', 18n, 10n ** 27n],
  ['Test Dollar', 'TUSD', 6n, 10n ** 15n],
  ['Wrapped Bitcoin Test', 'WBTC', 8n, 21n * 10n ** 14n],
  ['Plain Points', 'PTS', 0n, 1_000_000n],
];
const COLLECTIONS: readonly [string, string, bigint][] = [
  ['Devnode Cats', 'CATS', 8n],
  ['Generated Art', 'GART', 3n],
];
/** ALLOWANCE each trader gives the router once per token (never used up). */
const ROUTER_ALLOWANCE = 10n ** 40n;
/** DEADLINE of router calls (2100-01-01; the devnode does not check deadlines, and chains stay deterministic). */
const DEADLINE = 4_102_444_800_000n;
/** TRADERS are the first accounts: they hold tokens, provide liquidity and swap. */
const TRADERS = 12;
/** REGISTRAR_TURN: every this many token transactions after the setup, the registrar acts on a name. */
const REGISTRAR_TURN = 25;

type Step = () => BuiltTx | undefined;

/** TokenTraffic builds token, NFT and DEX transactions for the generator. */
export class TokenTraffic {
  readonly #chain: Chain;
  readonly #rng: Random;
  readonly #traders: readonly KeyPair[];
  readonly #tokens: string[] = [];
  readonly #owners = new Map<string, KeyPair>();
  readonly #collections: string[] = [];
  #wae = '';
  #factory = '';
  #router = '';
  #registrar = '';
  /** the names the registrar claimed, in order (some since transferred, revoked or expired) */
  readonly #registered: string[] = [];
  /**
   * the registrar's own draws, apart from the token traffic's: its calls take a turn of the token traffic now and then
   * and draw nothing from its stream, so the token transactions a seed made before the registrar stay what they were
   */
  readonly #registrarRng = new Random('devnode registrar');
  readonly #withRegistrar: boolean;
  readonly #registrarBids: boolean;
  #turns = 0;
  readonly #routerAllowances = new Set<string>();
  #setup: Step[];
  readonly #actions: readonly [number, Step][];

  /**
   * `registrar`: a names registrar is deployed and acts on names (opt-in: it changes a seed's chain); `registrarBids`:
   * it bids in the accounts' running auctions too (#registrarBid)
   */
  constructor(chain: Chain, rng: Random, accounts: readonly KeyPair[], registrar = false, registrarBids = false) {
    this.#chain = chain;
    this.#rng = rng;
    this.#withRegistrar = registrar;
    this.#registrarBids = registrarBids;
    this.#traders = accounts.slice(0, TRADERS);
    this.#setup = this.#setupSteps();
    this.#actions = [
      [20, () => this.#transfer()],
      [4, () => this.#mint()],
      [3, () => this.#burn()],
      [5, () => this.#allowance()],
      [3, () => this.#transferAllowance()],
      [4, () => this.#wrap()],
      [4, () => this.#addLiquidity()],
      [10, () => this.#swap()],
      [3, () => this.#swapAe()],
      [5, () => this.#nftMint()],
      [5, () => this.#nftTemplateMint()],
      [6, () => this.#nftTransfer()],
      [2, () => this.#nftApprove()],
      [2, () => this.#nftBurn()],
    ];
  }

  /** next is the next token transaction, or undefined when the chosen action has nothing to act on. */
  next(): BuiltTx | undefined {
    const setup = this.#setup.shift();
    if (setup) return setup();
    if (this.#withRegistrar && ++this.#turns % REGISTRAR_TURN === 0) return this.#registrarCall();
    const total = this.#actions.reduce((s, [w]) => s + w, 0);
    let roll = this.#rng.int(1, total);
    for (const [weight, action] of this.#actions) {
      roll -= weight;
      if (roll <= 0) return action();
    }
    return undefined;
  }

  #nonce(k: KeyPair): number {
    return (this.#chain.pending.accounts.get(k.address)?.nonce ?? 0) + 1;
  }

  #slot<V extends FateValue>(contract: string, slot: string): V | undefined {
    return this.#chain.pending.contractStore.get(`${contract}/${slot}`) as V | undefined;
  }

  #deploy(owner: KeyPair, kind: ContractKind, args: FateValue[], remember: (id: string) => void): BuiltTx {
    const nonce = this.#nonce(owner);
    const id = contractId(owner.address, nonce);
    remember(id);
    this.#owners.set(id, owner);
    return createTx(owner, nonce, kind, args);
  }

  #call(caller: KeyPair, contract: string, fn: string, args: FateValue[], amount = 0n): BuiltTx {
    return callTx(caller, this.#nonce(caller), contract, fn, args, amount);
  }

  #setupSteps(): Step[] {
    const t = this.#traders;
    const steps: Step[] = TOKENS.map(
      ([name, symbol, decimals, supply], i) =>
        () =>
          this.#deploy(t[i]!, 'aex9', [name, decimals, symbol, some(supply)], (id) => this.#tokens.push(id)),
    );
    steps.push(() => this.#deploy(t[4]!, 'wae', [], (id) => (this.#wae = id)));
    let model = '';
    steps.push(() =>
      this.#deploy(
        t[5]!,
        'pair',
        [address(this.#wae), address(this.#tokens[0]!), address(this.#tokens[1]!), NONE, NONE],
        (id) => (model = id),
      ),
    );
    steps.push(() =>
      this.#deploy(t[5]!, 'factory', [address(t[5]!.address), address(model), NONE], (id) => (this.#factory = id)),
    );
    steps.push(() =>
      this.#deploy(
        t[5]!,
        'router',
        [address(this.#factory), address(this.#wae), address(this.#wae)],
        (id) => (this.#router = id),
      ),
    );
    COLLECTIONS.forEach(([name, symbol, limit], i) =>
      steps.push(() => this.#deploy(t[6 + i]!, 'aex141', [name, symbol, limit], (id) => this.#collections.push(id))),
    );
    for (let i = 0; i < COLLECTIONS.length * 2; i++) {
      steps.push(() => {
        const collection = this.#collections[i % COLLECTIONS.length]!;
        const edition = i < COLLECTIONS.length ? some(BigInt(5 + i)) : NONE;
        const metadata = metadataMap({ name: `template ${i}`, image: `ipfs://devnode/${i}` });
        return this.#call(this.#owners.get(collection)!, collection, 'create_template', [metadata, edition]);
      });
    }
    for (let i = 0; i < TOKENS.length; i++) {
      for (const k of t) steps.push(() => this.#seedHolder(this.#tokens[i]!, k));
    }
    for (const k of t.slice(0, 4)) {
      steps.push(() => this.#call(k, this.#wae, 'deposit', [], 10n ** 24n));
      for (const token of [this.#wae, ...TOKENS.map((_, i) => i)]) {
        steps.push(() => this.#approveRouter(k, typeof token === 'string' ? this.#wae : this.#tokens[token]!));
      }
    }
    for (const [a, b] of [
      [0, 1],
      [1, 2],
      [2, 3],
      [-1, 0],
      [-1, 1],
    ] as const) {
      steps.push(() => this.#seedLiquidity(this.#traders[Math.max(a, 0)]!, a, b));
    }
    if (this.#withRegistrar) steps.push(() => this.#deploy(t[8]!, 'registrar', [], (id) => (this.#registrar = id)));
    return steps;
  }

  /**
   * #registrarCall has the registrar act on a name: with `registrarBids`, a third of its turns outbid an account in a
   * running auction (#registrarBid); else point, transfer or revoke one it holds, else claim a new one with the name's
   * minimum fee sent along (a fifth of them of 9 characters: the contract opens their auction).
   */
  #registrarCall(): BuiltTx {
    const caller = this.#traders[this.#registrarRng.int(0, this.#traders.length - 1)]!;
    const account = withPrefix(this.#registrar, 'ak');
    const bid =
      this.#registrarBids && this.#registrarRng.int(1, 3) === 1 ? this.#registrarBid(caller, account) : undefined;
    if (bid !== undefined) return bid;
    const names = this.#chain.pending.names;
    const held = this.#registered.filter((n) => {
      const entry = names.get(nameHash(n));
      return entry?.owner === account && nameStatus(entry, this.#chain.height) === 'claimed';
    });
    const roll = this.#registrarRng.int(1, 10);
    const name = held.length > 0 ? held[this.#registrarRng.int(0, held.length - 1)]! : undefined;
    const other = address(this.#traders[this.#registrarRng.int(0, this.#traders.length - 1)]!.address);
    if (name !== undefined && roll <= 3) return this.#call(caller, this.#registrar, 'update', [name, other]);
    if (name !== undefined && roll === 4) return this.#call(caller, this.#registrar, 'transfer', [name, other]);
    if (name !== undefined && roll === 5) return this.#call(caller, this.#registrar, 'revoke', [name]);
    const n = this.#registered.length.toString(36);
    const fresh =
      this.#registrarRng.int(1, 5) === 1
        ? `ra${n.padStart(7, '0')}.chain`
        : `registrar${n.padStart(4, '0')}x${this.#registrarRng.uint32().toString(36)}.chain`;
    this.#registered.push(fresh);
    return this.#call(caller, this.#registrar, 'claim', [fresh], minimumNameFee(fresh));
  }

  /**
   * #registrarBid has the registrar (`account`) outbid by 10 % a running auction another bidder leads, the fee sent
   * along: a contract's bid, outbidding an account's (returned to it), which the name traffic's bids may outbid in turn
   * (the contract's returned), or winning (locked after the auction's end). None where no such auction runs.
   */
  #registrarBid(caller: KeyPair, account: string): BuiltTx | undefined {
    const height = this.#chain.height;
    const running = [...this.#chain.pending.auctions.entries()]
      .map(([, a]) => a)
      .filter((a) => a.bidder !== account && a.ends >= height);
    if (running.length === 0) return undefined;
    const auction = running[this.#registrarRng.int(0, running.length - 1)]!;
    if (!this.#registered.includes(auction.name)) this.#registered.push(auction.name);
    return this.#call(caller, this.#registrar, 'claim', [auction.name], (auction.bid * 110n + 99n) / 100n);
  }

  /** #seedHolder gives a trader a twentieth of the owner's tokens. */
  #seedHolder(token: string, k: KeyPair): BuiltTx | undefined {
    const owner = this.#owners.get(token)!;
    if (k === owner) return undefined;
    return this.#call(owner, token, 'transfer', [address(k.address), this.#balance(token, owner.address) / 20n]);
  }

  /** #seedLiquidity opens a pair of token `a` (−1: wrapped AE) and `b` with a tenth of the trader's balances. */
  #seedLiquidity(k: KeyPair, a: number, b: number): BuiltTx {
    const [tokenA, tokenB] = [a < 0 ? this.#wae : this.#tokens[a]!, this.#tokens[b]!];
    const [amountA, amountB] = [this.#balance(tokenA, k.address) / 10n, this.#balance(tokenB, k.address) / 10n];
    const args = [address(tokenA), address(tokenB), amountA, amountB, 0n, 0n, address(k.address), NONE, DEADLINE];
    return this.#call(k, this.#router, 'add_liquidity', args);
  }

  #balance(token: string, account: string): bigint {
    return this.#slot<bigint>(token, `b:${account}`) ?? 0n;
  }

  /** #holder is a trader holding some of `token`, if any. */
  #holder(token: string): KeyPair | undefined {
    const start = this.#rng.int(0, this.#traders.length - 1);
    for (let i = 0; i < this.#traders.length; i++) {
      const k = this.#traders[(start + i) % this.#traders.length]!;
      if (this.#balance(token, k.address) > 0n) return k;
    }
    return undefined;
  }

  #part(balance: bigint): bigint {
    return balance / BigInt(this.#rng.int(2, 50)) + 1n;
  }

  #transfer(): BuiltTx | undefined {
    const token = this.#rng.pick(this.#tokens);
    const from = this.#holder(token);
    if (!from) return undefined;
    const to = this.#rng.pick(this.#traders);
    return this.#call(from, token, 'transfer', [address(to.address), this.#part(this.#balance(token, from.address))]);
  }

  #mint(): BuiltTx {
    const token = this.#rng.pick(this.#tokens);
    const amount = this.#rng.bigint(this.#rng.int(8, 80));
    return this.#call(this.#owners.get(token)!, token, 'mint', [
      address(this.#rng.pick(this.#traders).address),
      amount,
    ]);
  }

  #burn(): BuiltTx | undefined {
    const token = this.#rng.pick(this.#tokens);
    const from = this.#holder(token);
    if (!from) return undefined;
    return this.#call(from, token, 'burn', [this.#part(this.#balance(token, from.address) / 10n)]);
  }

  /** #spender is one of a few traders, so that allowances get changed, reset and used, not only created. */
  #spender(): KeyPair {
    return this.#traders[this.#rng.int(0, 2)]!;
  }

  #allowance(): BuiltTx {
    const token = this.#rng.pick(this.#tokens);
    const owner = this.#rng.pick(this.#traders);
    const spender = this.#spender().address;
    const existing = this.#slot<bigint>(token, `a:${owner.address}:${spender}`);
    if (existing === undefined)
      return this.#call(owner, token, 'create_allowance', [address(spender), this.#rng.bigint(60)]);
    if (this.#rng.chance(0.2)) return this.#call(owner, token, 'reset_allowance', [address(spender)]);
    return this.#call(owner, token, 'change_allowance', [address(spender), this.#rng.bigint(50)]);
  }

  #transferAllowance(): BuiltTx | undefined {
    const token = this.#rng.pick(this.#tokens);
    const owner = this.#holder(token);
    const spender = this.#spender();
    if (!owner) return undefined;
    const allowed = this.#slot<bigint>(token, `a:${owner.address}:${spender.address}`) ?? 0n;
    const amount = [allowed, this.#balance(token, owner.address)].reduce((a, b) => (a < b ? a : b));
    if (amount === 0n) return undefined;
    const to = this.#rng.pick(this.#traders).address;
    return this.#call(spender, token, 'transfer_allowance', [address(owner.address), address(to), this.#part(amount)]);
  }

  #wrap(): BuiltTx | undefined {
    const k = this.#rng.pick(this.#traders);
    const wrapped = this.#balance(this.#wae, k.address);
    if (wrapped > 0n && this.#rng.chance(0.3)) return this.#call(k, this.#wae, 'withdraw', [this.#part(wrapped)]);
    return this.#call(k, this.#wae, 'deposit', [], BigInt(this.#rng.int(1, 10 ** 9)) * 10n ** 9n);
  }

  /**
   * aeMovingCall is a call that moves AE inside the contracts, one internal call each, as mainnet's DEX traffic does:
   * an AE-to-token swap through the router (its `Call.amount` to wrapped AE) or a withdrawal of wrapped AE (its
   * `Chain.spend`) of at most 10^18 aettos by a trader holding some, so the 10^24 each of four traders got in the setup
   * lasts a chain at mainnet's size; none before the DEX is set up.
   */
  aeMovingCall(): BuiltTx | undefined {
    if (this.#setup.length > 0 || this.#router === '') return undefined;
    const paired = this.#tokens.filter((t) => this.#pairOf(this.#wae, t) !== undefined);
    if (this.#rng.chance(0.5)) return paired.length > 0 ? this.#swapAe(this.#rng.pick(paired)) : undefined;
    const k = this.#holder(this.#wae);
    if (!k) return undefined;
    const wrapped = this.#balance(this.#wae, k.address);
    const amount = BigInt(this.#rng.int(1, 10 ** 9)) * 10n ** 9n;
    return this.#call(k, this.#wae, 'withdraw', [amount < wrapped ? amount : wrapped]);
  }

  /** #approveRouter gives the router an allowance once per trader and token (undefined when given). */
  #approveRouter(k: KeyPair, token: string): BuiltTx | undefined {
    const key = `${k.address}:${token}`;
    if (this.#routerAllowances.has(key)) return undefined;
    this.#routerAllowances.add(key);
    return this.#call(k, token, 'create_allowance', [address(withPrefix(this.#router, 'ak')), ROUTER_ALLOWANCE]);
  }

  #tradable(): string[] {
    return [this.#wae, ...this.#tokens];
  }

  #addLiquidity(): BuiltTx | undefined {
    const [a, b] = this.#twoTokens();
    const k = this.#holder(a);
    if (!k || this.#balance(b, k.address) === 0n) return undefined;
    const approve = this.#approveRouter(k, a) ?? this.#approveRouter(k, b);
    if (approve) return approve;
    const [amountA, amountB] = [this.#part(this.#balance(a, k.address)), this.#part(this.#balance(b, k.address))];
    if (amountA * amountB < 10n ** 8n) return undefined;
    const args = [address(a), address(b), amountA, amountB, 0n, 0n, address(k.address), NONE, DEADLINE];
    return this.#call(k, this.#router, 'add_liquidity', args);
  }

  #twoTokens(): [string, string] {
    const tokens = this.#tradable();
    const a = this.#rng.pick(tokens);
    const rest = tokens.filter((t) => t !== a);
    return [a, this.#rng.pick(rest)];
  }

  #pairOf(a: string, b: string): string | undefined {
    const [t0, t1] = sortTokens(a, b);
    return this.#slot<string>(this.#factory, `pair:${t0}:${t1}`);
  }

  #swap(): BuiltTx | undefined {
    const [a, b] = this.#twoTokens();
    const pair = this.#pairOf(a, b);
    const k = this.#holder(a);
    if (!pair || !k || this.#slot<bigint>(pair, 'reserve0') === undefined) return undefined;
    const approve = this.#approveRouter(k, a);
    if (approve) return approve;
    const path = [a, b];
    const c = this.#rng.pick(this.#tradable());
    if (c !== a && c !== b && this.#pairOf(b, c) && this.#rng.chance(0.4)) path.push(c);
    const amount = this.#part(this.#balance(a, k.address) / 20n);
    const args = [amount, 0n, path.map(address), address(k.address), DEADLINE, NONE];
    return this.#call(k, this.#router, 'swap_exact_tokens_for_tokens', args);
  }

  #swapAe(token = this.#rng.pick(this.#tokens)): BuiltTx | undefined {
    if (!this.#pairOf(this.#wae, token)) return undefined;
    const k = this.#rng.pick(this.#traders);
    const amount = BigInt(this.#rng.int(1, 10 ** 6)) * 10n ** 9n;
    const args = [0n, [address(this.#wae), address(token)], address(k.address), DEADLINE, NONE];
    return this.#call(k, this.#router, 'swap_exact_ae_for_tokens', args, amount);
  }

  #nftMint(): BuiltTx {
    const collection = this.#rng.pick(this.#collections);
    const to = this.#rng.pick(this.#traders).address;
    const metadata = some(metadataMap({ name: `token ${this.#rng.uint32()}`, rarity: String(this.#rng.int(1, 5)) }));
    return this.#call(this.#owners.get(collection)!, collection, 'mint', [address(to), metadata, NONE]);
  }

  #nftTemplateMint(): BuiltTx | undefined {
    const collection = this.#rng.pick(this.#collections);
    const templates = Number(this.#slot<bigint>(collection, 'template_counter') ?? 0n);
    if (templates === 0) return undefined;
    const id = BigInt(this.#rng.int(0, templates - 1));
    const template = this.#slot<FateTuple>(collection, `tpl:${id}`);
    const limit = template?.items[1] as { tag: number; values: readonly bigint[] } | undefined;
    if (!template || (limit?.tag === 1 && (template.items[2] as bigint) >= limit.values[0]!)) return undefined;
    const to = this.#rng.pick(this.#traders).address;
    return this.#call(this.#owners.get(collection)!, collection, 'template_mint', [address(to), id, NONE]);
  }

  /** #ownedNft is a token of a collection and its owner, if the owner is a trader. */
  #ownedNft(): { collection: string; token: bigint; owner: KeyPair } | undefined {
    const collection = this.#rng.pick(this.#collections);
    const owner = this.#rng.pick(this.#traders);
    const tokens = this.#slot<bigint[]>(collection, `t:${owner.address}`) ?? [];
    if (tokens.length === 0) return undefined;
    return { collection, token: this.#rng.pick(tokens), owner };
  }

  #nftTransfer(): BuiltTx | undefined {
    const nft = this.#ownedNft();
    const to = this.#rng.pick(this.#traders);
    if (!nft || to === nft.owner) return undefined;
    return this.#call(nft.owner, nft.collection, 'transfer', [address(to.address), nft.token, NONE]);
  }

  #nftApprove(): BuiltTx | undefined {
    const nft = this.#ownedNft();
    if (!nft) return undefined;
    const approved = address(this.#rng.pick(this.#traders).address);
    return this.#call(nft.owner, nft.collection, 'approve', [approved, nft.token, this.#rng.chance(0.8)]);
  }

  #nftBurn(): BuiltTx | undefined {
    const nft = this.#ownedNft();
    return nft && this.#call(nft.owner, nft.collection, 'burn', [nft.token]);
  }
}

/** TOKEN_WEIGHT of token, NFT and DEX calls in the generator's mix (about one transaction in ten). */
export const TOKEN_WEIGHT = 12;
