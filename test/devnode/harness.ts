/** @module Test harness: a devnode on free ports, JSON fetch helpers and sdk signing. */
import { MemoryAccount } from '@aeternity/aepp-sdk';
import pino from 'pino';
import { parseJson, stringifyJson } from '../../src/chain/json.ts';
import { startDevnode, type Devnode, type DevnodeOptions } from '../../src/devnode/index.ts';
import { plainGet, plainPost } from '../support/app-request.ts';

/** Reply is a status and a losslessly parsed body (plus its raw text, for digit-exact checks). */
export interface Reply {
  status: number;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read response bodies field by field
  body: any;
  text: string;
}

/** TestNode is a running devnode with helpers bound to its ports. */
export interface TestNode {
  node: Devnode;
  accounts: MemoryAccount[];
  get(path: string): Promise<Reply>;
  getInternal(path: string): Promise<Reply>;
  post(path: string, body: unknown): Promise<Reply>;
  postInternal(path: string, body: unknown): Promise<Reply>;
  /** build with an internal builder, sign with the sdk, post to /v2/transactions */
  submit(builder: string, body: Record<string, unknown>, signer: MemoryAccount): Promise<Reply>;
  /** build and sign without posting */
  signed(builder: string, body: Record<string, unknown>, signer: MemoryAccount): Promise<string>;
}

/**
 * call GETs `url`, or POSTs a JSON `body` to it, over plain node:http (app-request.ts): the devnode's tests send
 * thousands of requests, at a third of fetch's CPU each.
 */
async function call(url: string, body?: string): Promise<Reply> {
  const { status, text } = body === undefined ? await plainGet(url) : await plainPost(url, body);
  return { status, body: text === '' ? undefined : parseJson(text), text };
}

const post = (url: string, body: unknown): Promise<Reply> =>
  call(url, typeof body === 'string' ? body : stringifyJson(body));

/** FUNDS is what each test account starts with (beyond 2^53). */
export const FUNDS = 10n ** 25n;

/** startTestNode starts a devnode with three sdk accounts and no timers (mining on demand). */
export async function startTestNode(opts: DevnodeOptions = {}): Promise<TestNode> {
  const accounts = [MemoryAccount.generate(), MemoryAccount.generate(), MemoryAccount.generate()];
  const node = await startDevnode(
    {
      port: 0,
      internalPort: 0,
      microBlockIntervalMs: 0,
      keyBlockIntervalMs: 0,
      accounts: accounts.map((a) => ({ secretKey: a.secretKey, balance: FUNDS })),
      ...opts,
    },
    pino({ level: 'silent' }),
  );
  const t: TestNode = {
    node,
    accounts,
    get: (path) => call(node.externalUrl + path),
    getInternal: (path) => call(node.internalUrl + path),
    post: (path, body) => post(node.externalUrl + path, body),
    postInternal: (path, body) => post(node.internalUrl + path, body),
    async signed(builder, body, signer) {
      const built = await t.postInternal(`/v2/debug/${builder}`, body);
      if (built.status !== 200) throw new Error(`builder ${builder} answered ${built.status} ${built.text}`);
      return signer.signTransaction(built.body.tx as `tx_${string}`, { networkId: 'ae_devnet' });
    },
    async submit(builder, body, signer) {
      return t.post('/v2/transactions', { tx: await t.signed(builder, body, signer) });
    },
  };
  return t;
}
