/** @module Contract call decoding: in-process FATE, the compiler HTTP API, and failures recorded not thrown. */
import { expect } from 'chai';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ContractDecoder, isTransientDecodeError } from '../../../src/indexer/contracts/contract-decoder.ts';
import { bareForm } from '../../support/bare-form.ts';
import { contractCallData, DEVNODE_CONTRACT_BYTECODE } from '../../../src/devnode/contracts/fate-contract.ts';
import { BYTECODE } from '../../../src/devnode/contracts/standards.ts';
import { mayMakeInternalCalls } from '../../../src/chain/internal-call-ops.ts';
import { encode } from '../../../src/chain/encoding.ts';
import { parseJson } from '../../../src/chain/json.ts';
import pino from 'pino';
import { createPool, type Pool } from '../../../src/db/connection/pool.ts';
import { createMigratedDatabase } from '../../support/postgres.ts';
import { STORED_TX_COLUMNS, storedTxValues } from '../../support/stored-tx.ts';
import { txTypeCode } from '../../../src/chain/id-key.ts';
import type { FetchedGeneration, JsonObject } from '../../../src/indexer/rows/rows.ts';

const ct = 'ct_2Zjp';
const codeOf = async (id: string): Promise<string | undefined> => (id === ct ? DEVNODE_CONTRACT_BYTECODE : undefined);

describe('ContractDecoder', () => {
  let db: { url: string; pool: Pool; drop(): Promise<void> };
  before(async () => {
    db = await createMigratedDatabase('mdw');
  });
  after(() => db.drop());

  /** decoderWith decodes with code from a node that knows what `nodeCode` knows (nothing is stored). */
  const decoderWith = (nodeCode: typeof codeOf = codeOf, compilerUrl?: string): ContractDecoder =>
    new ContractDecoder({
      timeoutMs: 1000,
      compilerUrl,
      db: db.pool,
      node: {
        contractCode: async (id) => {
          const code = await nodeCode(id);
          if (code === undefined) throw new Error('Contract not found');
          return code;
        },
      },
    });

  it('decodes FATE calldata and the return value in-process', async () => {
    const decoder = decoderWith();
    const big = 2n ** 100n;
    const tx = { type: 'ContractCallTx', contract_id: ct, abi_version: 3, call_data: contractCallData('set', [big]) };
    // FATE small integer 42 is the single byte 42 << 1
    const result = await decoder.decode(tx, { return_type: 'ok', return_value: encode('cb', Uint8Array.of(84)) });
    expect(result).to.deep.equal({
      function: 'set',
      arguments: [{ type: 'int', value: big }],
      result: { type: 'int', value: 42 },
      decodeError: null,
    });
    const init = await decoder.decode(
      {
        type: 'ContractCreateTx',
        code: DEVNODE_CONTRACT_BYTECODE,
        abi_version: 3,
        call_data: contractCallData('init', []),
      },
      undefined,
    );
    expect(init).to.include({ function: 'init', decodeError: null });
  });

  it("decodes a revert as the reason, a typed string, not as the function's return type", async () => {
    const decoder = decoderWith();
    const tx = { type: 'ContractCallTx', contract_id: ct, abi_version: 3, call_data: contractCallData('set', [1n]) };
    // a FATE short string: one byte (length << 2 | 1), then the bytes
    const reason = Buffer.from('not allowed');
    const value = encode('cb', Uint8Array.from([(reason.length << 2) | 1, ...reason]));
    const result = await decoder.decode(tx, { return_type: 'revert', return_value: value });
    expect(result).to.deep.equal({
      function: 'set',
      arguments: [{ type: 'int', value: 1 }],
      result: { type: 'string', value: 'not allowed' },
      decodeError: null,
    });
  });

  it('records why a call could not be decoded instead of throwing', async () => {
    const decoder = decoderWith();
    const unknown = await decoder.decode(
      { type: 'ContractCallTx', contract_id: 'ct_unknown', abi_version: 3, call_data: 'cb_Xfbg4g==' },
      undefined,
    );
    expect(unknown.decodeError).to.equal('contract bytecode unknown');
    const garbage = await decoder.decode(
      { type: 'ContractCallTx', contract_id: ct, abi_version: 3, call_data: 'cb_AAAAAAAA' },
      undefined,
    );
    expect(garbage.function).to.equal(null);
    expect(garbage.decodeError).to.be.a('string').and.not.equal('');
    const aevm = await decoder.decode(
      { type: 'ContractCallTx', contract_id: ct, abi_version: '0x0001', call_data: 'cb_Xfbg4g==' },
      undefined,
    );
    expect(aevm.decodeError).to.match(/COMPILER_URL/);
  });

  it("tells whether a remembered contract's code may make internal calls, by its id, none where it holds no code", () => {
    const decoder = decoderWith();
    const [token, router] = ['ct_token', 'ct_router'];
    expect(decoder.mayCall(token)).to.equal(undefined);
    decoder.rememberCode(
      new Map([
        [token, BYTECODE.aex9],
        [router, BYTECODE.router],
      ]),
    );
    // the verdicts of the code itself (a token's code makes none, a router's does), asked twice: the second kept
    for (let i = 0; i < 2; i++) {
      expect(decoder.mayCall(token)).to.equal(mayMakeInternalCalls(BYTECODE.aex9)).and.to.equal(false);
      expect(decoder.mayCall(router)).to.equal(mayMakeInternalCalls(BYTECODE.router)).and.to.equal(true);
    }
    // another code remembered under the id (a fork's contract): its own verdict; none once the code is forgotten
    decoder.rememberCode(new Map([[token, BYTECODE.wae]]));
    expect(decoder.mayCall(token)).to.equal(true);
    decoder.forgetCode();
    expect(decoder.mayCall(router)).to.equal(undefined);
  });

  it('throws a failed read of the stored code (the database away), which says nothing of the call', async () => {
    // a real pool, ended: each query fails as one the database cannot take does
    const away = createPool({ databaseUrl: db.url, schema: 'mdw', max: 1 }, pino({ level: 'silent' }));
    await away.end();
    const decoder = new ContractDecoder({ timeoutMs: 1000, db: away, node: { contractCode: async () => '' } });
    const tx = { type: 'ContractCallTx', contract_id: ct, abi_version: 3, call_data: contractCallData('get', []) };
    const failed = await decoder.decode(tx, undefined).then(
      (decoded) => decoded.decodeError,
      (err: unknown) => err,
    );
    // stored as the call's decode error it was kept for good: the batch is retried instead
    expect(failed)
      .to.be.instanceOf(Error)
      .with.property('message')
      .that.matches(/pool after calling end/);
  });

  it("looks a called contract's code up once, and again after forgetCode (a fork may change it)", async () => {
    const lookups: string[] = [];
    const counting = async (id: string): Promise<string | undefined> => {
      lookups.push(id);
      return codeOf(id);
    };
    const decoder = decoderWith(counting);
    const call = { type: 'ContractCallTx', contract_id: ct, abi_version: 3, call_data: contractCallData('set', [7n]) };
    for (let i = 0; i < 3; i++)
      expect(await decoder.decode(call, undefined)).to.include({ function: 'set', decodeError: null });
    // an unknown contract is asked again: it may be created later
    await decoder.decode({ ...call, contract_id: 'ct_unknown' }, undefined);
    await decoder.decode({ ...call, contract_id: 'ct_unknown' }, undefined);
    expect(lookups).to.deep.equal([ct, 'ct_unknown', 'ct_unknown']);
    decoder.forgetCode();
    await decoder.decode(call, undefined);
    expect(lookups).to.deep.equal([ct, 'ct_unknown', 'ct_unknown', ct]);
  });

  it('looks a contract up once for the calls that need it at the same time (a batch decodes its generations at once)', async () => {
    const lookups: string[] = [];
    const decoder = decoderWith(async (id) => {
      lookups.push(id);
      return codeOf(id);
    });
    const call = { type: 'ContractCallTx', contract_id: ct, abi_version: 3, call_data: contractCallData('set', [7n]) };
    const decoded = await Promise.all(Array.from({ length: 20 }, () => decoder.decode(call, undefined)));
    expect(decoded.every((d) => d.function === 'set' && d.decodeError === null)).to.equal(true);
    expect(lookups).to.deep.equal([ct]);
  });
  it('asks for no code the loader told it of, until forgetCode', async () => {
    const lookups: string[] = [];
    const counting = async (id: string): Promise<string | undefined> => {
      lookups.push(id);
      return codeOf(id);
    };
    const decoder = decoderWith(counting);
    decoder.rememberCode(new Map([[ct, DEVNODE_CONTRACT_BYTECODE]]));
    const call = { type: 'ContractCallTx', contract_id: ct, abi_version: 3, call_data: contractCallData('set', [7n]) };
    expect(await decoder.decode(call, undefined)).to.include({ function: 'set', decodeError: null });
    expect(lookups).to.deep.equal([]);
    decoder.forgetCode();
    await decoder.decode(call, undefined);
    expect(lookups).to.deep.equal([ct]);
  });

  it('finds a stored contract in the database without asking the node, and code created in the batch first', async () => {
    const stored = 'ct_stored_by_test';
    await db.pool.query(
      `INSERT INTO key_blocks (height, hash, prev_hash, prev_key_hash, beneficiary, miner, time_ms, data)
       VALUES (1, 'kh_1', 'kh_0', 'kh_0', 'ak_b', 'ak_m', 1, '{}')`,
    );
    await db.pool.query(
      `INSERT INTO transactions (hash, height, micro_index, tx_index, micro_time_ms, tx_type, fee, ${STORED_TX_COLUMNS})
       VALUES ('th_create', 1, 0, 0, 1, ${txTypeCode('ContractCreateTx')}, 1, $1, $2, $3, $4, $5)`,
      storedTxValues({ type: 'ContractCreateTx', code: DEVNODE_CONTRACT_BYTECODE }, ['sg_1'], 10),
    );
    await db.pool.query(
      `INSERT INTO contracts (contract_id, create_tx_hash, height, owner_id, vm_version, abi_version) VALUES ($1, 'th_create', 1, 'ak_o', '7', '3')`,
      [stored],
    );
    const asked: string[] = [];
    const decoder = decoderWith(async (id) => {
      asked.push(id);
      return undefined;
    });
    const call = (id: string) => ({
      type: 'ContractCallTx',
      contract_id: id,
      abi_version: 3,
      call_data: contractCallData('set', [7n]),
    });
    expect(await decoder.decode(call(stored), undefined)).to.include({ function: 'set', decodeError: null });
    const batch = new Map([['ct_created_in_batch', DEVNODE_CONTRACT_BYTECODE]]);
    expect(await decoder.decode(call('ct_created_in_batch'), undefined, batch)).to.include({ decodeError: null });
    expect(asked).to.deep.equal([]);
  });

  it('reads the stored code of the contracts a batch calls in one statement, asking the node only for the others', async () => {
    await db.pool.query(
      `INSERT INTO key_blocks (height, hash, prev_hash, prev_key_hash, beneficiary, miner, time_ms, data)
       VALUES (2, 'kh_2', 'kh_1', 'kh_1', 'ak_b', 'ak_m', 2, '{}')`,
    );
    const stored = ['ct_stored_a', 'ct_stored_b'];
    for (const [i, id] of stored.entries()) {
      await db.pool.query(
        `INSERT INTO transactions (hash, height, micro_index, tx_index, micro_time_ms, tx_type, fee, ${STORED_TX_COLUMNS})
         VALUES ($6, 2, 0, $7, 2, ${txTypeCode('ContractCreateTx')}, 1, $1, $2, $3, $4, $5)`,
        [
          ...storedTxValues({ type: 'ContractCreateTx', code: DEVNODE_CONTRACT_BYTECODE }, [`sg_${i}`], 10),
          `th_${id}`,
          i,
        ],
      );
      await db.pool.query(
        `INSERT INTO contracts (contract_id, create_tx_hash, height, owner_id, vm_version, abi_version) VALUES ($1, $2, 2, 'ak_o', '7', '3')`,
        [id, `th_${id}`],
      );
    }
    const statements: unknown[] = [];
    const asked: string[] = [];
    const decoder = new ContractDecoder({
      timeoutMs: 1000,
      db: {
        query: ((...args: Parameters<Pool['query']>) => {
          statements.push(args[0]);
          return (db.pool.query as (...a: unknown[]) => unknown)(...args);
        }) as Pool['query'],
      },
      node: {
        contractCode: async (id) => {
          asked.push(id);
          const code = await codeOf(id);
          if (code === undefined) throw new Error('Contract not found');
          return code;
        },
      },
    });
    const callTo = (id: string, n: number) => ({
      hash: `th_call_${n}`,
      tx: { type: 'ContractCallTx', contract_id: id, abi_version: 3, call_data: contractCallData('set', [7n]) },
    });
    const generation = (height: number, calls: { hash: string; tx: JsonObject }[]) =>
      ({
        height,
        keyBlock: {},
        microBlocks: [{ header: {}, transactions: calls }],
        callInfos: new Map(),
      }) as unknown as FetchedGeneration;
    const gens = await decoder.decodeCalls([
      generation(3, [callTo('ct_stored_a', 1), callTo(ct, 2), callTo('ct_stored_b', 3)]),
      generation(4, [callTo('ct_stored_b', 4), callTo('ct_stored_a', 5)]),
    ]);
    const decoded = gens.flatMap((g) => [...g.decodedCalls.values()]);
    expect(decoded).to.have.length(5);
    expect(decoded.every((d) => d.function === 'set' && d.decodeError === null)).to.equal(true);
    expect(statements).to.have.length(1);
    expect(asked).to.deep.equal([ct]);
  });

  it("keeps a batch's code only once the loader remembers it: a batch never written teaches it nothing", async () => {
    const asked: string[] = [];
    const decoder = decoderWith(async (id) => {
      asked.push(id);
      return undefined;
    });
    const created = 'ct_created_in_unwritten_batch';
    const batch = new Map([[created, DEVNODE_CONTRACT_BYTECODE]]);
    // the batch's internal calls read its contracts' code as it is prepared
    expect(await decoder.code(created, batch)).to.equal(DEVNODE_CONTRACT_BYTECODE);
    expect(asked).to.deep.equal([]);
    // the next batch, prepared before that one is committed: neither stored nor remembered, the node is asked
    expect(await decoder.code(created)).to.equal(undefined);
    expect(asked).to.deep.equal([created]);
    decoder.rememberCode(batch);
    expect(await decoder.code(created)).to.equal(DEVNODE_CONTRACT_BYTECODE);
    expect(asked).to.deep.equal([created]);
  });

  it('keeps remembered code within its bound, the least recently used going first', async () => {
    const lookups: string[] = [];
    // three contracts of 3 Mi characters each pass the 8 Mi bound: the oldest is forgotten
    const huge = async (id: string): Promise<string> => {
      lookups.push(id);
      return `cb_${id.slice(-1).repeat(3 * 2 ** 20)}`;
    };
    const decoder = decoderWith(huge);
    const call = (id: string): { [k: string]: string | number } => ({
      type: 'ContractCallTx',
      contract_id: id,
      abi_version: 3,
      call_data: 'cb_Xfbg4g==',
    });
    for (const id of ['ct_a', 'ct_b', 'ct_a', 'ct_c', 'ct_a', 'ct_b']) await decoder.decode(call(id), undefined);
    expect(lookups).to.deep.equal(['ct_a', 'ct_b', 'ct_c', 'ct_b']);
  });

  describe('with a compiler', () => {
    let server: Server;
    let url: string;
    const seen: { path: string; body: unknown }[] = [];
    before(async () => {
      server = createServer((req, res) => {
        let text = '';
        req.on('data', (c: Buffer) => {
          text += c.toString();
        });
        req.on('end', () => {
          seen.push({ path: req.url ?? '', body: parseJson(text) });
          // a compiler that cannot decode FATE calldata answers without a function
          if ((seen.at(-1)!.body as { backend?: string }).backend === 'fate') {
            res.writeHead(200, { 'content-type': 'application/json' });
            return void res.end('{}');
          }
          res.writeHead(req.url === '/decode-calldata/bytecode' ? 200 : 400, { 'content-type': 'application/json' });
          res.end(
            req.url === '/decode-calldata/bytecode'
              ? '{"function":"set","arguments":[{"type":"int","value":123456789012345678901234567890}]}'
              : '[{"type":"data_error","message":"Bad call value"}]',
          );
        });
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    });
    after(() => {
      server.close();
    });

    it('posts calldata and bytecode, keeps big integers, and records a failed result decode on the call', async () => {
      const decoder = decoderWith(codeOf, url);
      const result = await decoder.decode(
        { type: 'ContractCallTx', contract_id: ct, abi_version: 1, call_data: 'cb_Xfbg4g==' },
        { return_type: 'ok', return_value: 'cb_Xfbg4g==' },
      );
      expect(result.function).to.equal('set');
      expect(result.arguments).to.deep.equal([{ type: 'int', value: 123456789012345678901234567890n }]);
      expect(result.decodeError).to.match(/^return value: compiler/);
      expect(isTransientDecodeError(result.decodeError), 'a 400 is the call’s own failure').to.equal(false);
      expect(seen[0]).to.deep.equal({
        path: '/decode-calldata/bytecode',
        body: { calldata: 'cb_Xfbg4g==', bytecode: DEVNODE_CONTRACT_BYTECODE, backend: 'aevm' },
      });
      expect(seen[1]!.path).to.equal('/decode-call-result/bytecode');
    });

    it('decodes a FATE call the compiler sent no function for in-process instead', async () => {
      const decoder = decoderWith(codeOf, url);
      const big = 2n ** 100n;
      const tx = { type: 'ContractCallTx', contract_id: ct, abi_version: 3, call_data: contractCallData('set', [big]) };
      const before = seen.length;
      const result = await decoder.decode(tx, { return_type: 'ok', return_value: encode('cb', Uint8Array.of(84)) });
      expect(seen.length, 'the compiler was asked first').to.equal(before + 1);
      expect(result).to.deep.equal({
        function: 'set',
        arguments: [{ type: 'int', value: big }],
        result: { type: 'int', value: 42 },
        decodeError: null,
      });
    });

    it('names both failures when neither the compiler nor the in-process decoder can decode a FATE call', async () => {
      const decoder = decoderWith(codeOf, url);
      const tx = { type: 'ContractCallTx', contract_id: ct, abi_version: 3, call_data: 'cb_Xfbg4g==' };
      const result = await decoder.decode(tx, undefined);
      expect(result.function).to.equal(null);
      expect(result.decodeError).to.match(/^compiler sent no function; in-process: /);
    });
  });

  it('records a compiler that does not answer as a failure that passes (the call is decoded again later)', async () => {
    // nothing listens on port 1: every request is refused
    const away = decoderWith(codeOf, 'http://127.0.0.1:1');
    const aevm = await away.decode(
      { type: 'ContractCallTx', contract_id: ct, abi_version: 1, call_data: 'cb_Xfbg4g==' },
      undefined,
    );
    expect(aevm.decodeError).to.match(/^compiler unavailable: /);
    expect(isTransientDecodeError(aevm.decodeError)).to.equal(true);
    // a FATE call needs no compiler: decoded in-process
    const fate = { type: 'ContractCallTx', contract_id: ct, abi_version: 3, call_data: contractCallData('set', [5n]) };
    expect(await away.decode(fate, undefined)).to.include({ function: 'set', decodeError: null });
    const busy = createServer((_req, res) => {
      res.writeHead(503, { 'content-type': 'text/plain' });
      res.end('busy');
    });
    await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve));
    try {
      const port = (busy.address() as AddressInfo).port;
      const call = { type: 'ContractCallTx', contract_id: ct, abi_version: 1, call_data: 'cb_Xfbg4g==' };
      const result = await decoderWith(codeOf, `http://127.0.0.1:${port}`).decode(call, undefined);
      expect(result.decodeError).to.match(/^compiler unavailable: compiler \/decode-calldata\/bytecode: 503 busy/);
    } finally {
      busy.close();
    }
  });

  it('turns FATE values into JSON (the bare form stored before migration 1009)', () => {
    expect(bareForm(new Map([[1n, 'a']]))).to.deep.equal([{ key: 1n, val: 'a' }]);
    expect(bareForm(Uint8Array.of(1, 255))).to.equal('0x01ff');
    expect(bareForm({ Some: [true] })).to.deep.equal({ Some: [true] });
  });
});
