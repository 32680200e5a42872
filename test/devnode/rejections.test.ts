/** @module What the devnode refuses over HTTP, and the reasons it gives (never a 500). */
import { expect } from 'chai';
import { MemoryAccount } from '@aeternity/aepp-sdk';
import { decode, encode } from '../../src/chain/encoding.ts';
import { DEVNODE_CONTRACT_BYTECODE, contractCallData } from '../../src/devnode/index.ts';
import { startTestNode, type TestNode } from './harness.ts';

describe('devnode rejections over HTTP', () => {
  let t: TestNode;
  beforeEach(async () => {
    t = await startTestNode({ beneficiarySecret: MemoryAccount.generate().secretKey });
  });
  afterEach(() => t.node.stop());

  it('refuses a transaction from an account without balance until a key block pays the beneficiary', async () => {
    const beneficiary = (await t.getInternal('/v2/debug/accounts/beneficiary')).body.pub_key;
    const signer = new MemoryAccount(t.node.chain.options.miner.secretKey as `sk_${string}`);
    expect(signer.address).to.equal(beneficiary);
    const [to] = t.accounts as [MemoryAccount];
    const noAccount = await t.postInternal('/v2/debug/transactions/spend', {
      sender_id: beneficiary,
      recipient_id: to.address,
      amount: 1,
      fee: 1,
    });
    expect(noAccount)
      .to.include({ status: 404 })
      .and.to.have.deep.property('body', { reason: 'Account of sender_id not found' });
    const early = await t.submit(
      'transactions/spend',
      { sender_id: beneficiary, recipient_id: to.address, amount: 1, fee: 1, nonce: 1 },
      signer,
    );
    expect(early.status).to.equal(400);
    expect(early.body.reason).to.match(/^Invalid tx: insufficient balance/);
    await t.node.mineKeyBlock();
    const later = await t.submit(
      'transactions/spend',
      { sender_id: beneficiary, recipient_id: to.address, amount: 1, fee: 1 },
      signer,
    );
    expect(later.status, later.text).to.equal(200);
  });

  it('refuses spending more than the balance, a wrong nonce and a signature for another network', async () => {
    const [from, to] = t.accounts as [MemoryAccount, MemoryAccount];
    const tooMuch = await t.submit(
      'transactions/spend',
      { sender_id: from.address, recipient_id: to.address, amount: 10n ** 26n, fee: 1 },
      from,
    );
    expect(tooMuch.body.reason).to.match(/^Invalid tx: insufficient balance/);
    expect((await t.get(`/v2/accounts/${from.address}/next-nonce`)).body).to.deep.equal({ next_nonce: 1 });
    const badNonce = await t.submit(
      'transactions/spend',
      { sender_id: from.address, recipient_id: to.address, amount: 1, fee: 1, nonce: 5 },
      from,
    );
    expect(badNonce.body.reason).to.match(/^Invalid tx: nonce 5 is not the next nonce/);
    const built = await t.postInternal('/v2/debug/transactions/spend', {
      sender_id: from.address,
      recipient_id: to.address,
      amount: 1,
      fee: 1,
    });
    const otherNetwork = await from.signTransaction(built.body.tx, { networkId: 'ae_mainnet' });
    const wrongSig = await t.post('/v2/transactions', { tx: otherNetwork });
    expect(wrongSig.status).to.equal(400);
    expect(wrongSig.body.reason).to.match(/^Invalid tx: invalid signature/);
    const zeroFee = await t.submit(
      'transactions/spend',
      { sender_id: from.address, recipient_id: to.address, amount: 1, fee: 0 },
      from,
    );
    expect(zeroFee.body.reason).to.match(/^Invalid tx: fee too low/);
  });

  it('answers malformed POST /v2/transactions bodies with 400 and a reason', async () => {
    const cases: [unknown, RegExp][] = [
      ['{not json', /validation_error/],
      [[], /validation_error/],
      [{}, /validation_error/],
      [{ tx: 42 }, /validation_error/],
      [{ tx: 'nonsense' }, /^Invalid api encoding$/],
      [{ tx: encode('tx', Buffer.from('garbage bytes')) }, /^Invalid tx: /],
      [{ tx: encode('tx', Uint8Array.of(0xc0)) }, /^Invalid tx: /],
    ];
    for (const [body, reason] of cases) {
      const res = await t.post('/v2/transactions', body);
      expect(res.status, JSON.stringify(body)).to.equal(400);
      expect(res.body.reason).to.match(reason);
    }
  });

  it('answers malformed builder bodies with 400 and the node reasons', async () => {
    const [from, to] = t.accounts as [MemoryAccount, MemoryAccount];
    const spend = '/v2/debug/transactions/spend';
    expect((await t.postInternal(spend, { sender_id: from.address, amount: 1, fee: 1 })).body).to.deep.equal({
      reason: 'validation_error',
      parameter: 'recipient_id',
      info: { error: 'missing_required_property' },
    });
    expect(
      (await t.postInternal(spend, { sender_id: 'ak_bad', recipient_id: to.address, amount: 1, fee: 1 })).body,
    ).to.deep.equal({ reason: 'Invalid hash: sender_id' });
    expect(
      (await t.postInternal(spend, { sender_id: from.address, recipient_id: to.address, amount: -1, fee: 1 })).body
        .info,
    ).to.deep.equal({ error: 'wrong_type', data: -1 });
    expect((await t.postInternal(spend, 'null')).status).to.equal(400);
    const ttl = await t.postInternal('/v2/debug/oracles/extend', {
      oracle_id: from.address.replace('ak_', 'ok_'),
      oracle_ttl: { type: 'block', value: 5 },
      fee: 1,
    });
    expect(ttl.body).to.deep.equal({ reason: 'Invalid TTL type for key oracle_ttl' });
    const negative = await t.postInternal('/v2/debug/oracles/extend', {
      oracle_id: from.address.replace('ak_', 'ok_'),
      oracle_ttl: { type: 'delta', value: -5 },
      fee: 1,
    });
    expect(negative.body).to.deep.equal({ reason: 'Broken TTL for key oracle_ttl' });
    const pointers = await t.postInternal('/v2/debug/names/update', {
      account_id: from.address,
      name_id: encode('nm', Buffer.alloc(32)),
      name_ttl: 1,
      client_ttl: 1,
      fee: 1,
      pointers: [{ key: 'x' }],
    });
    expect(pointers.body).to.deep.equal({ reason: 'Invalid pointers' });
    expect((await t.getInternal('/v2/debug/names/commitment-id?name=a.chain&salt=x')).status).to.equal(400);
    expect((await t.get('/v2/key-blocks/hash/kh_nope')).body).to.deep.equal({ reason: 'Invalid hash' });
    expect((await t.get(`/v2/key-blocks/hash/${encode('kh', Buffer.alloc(32))}`)).body).to.deep.equal({
      reason: 'Block not found',
    });
    expect((await t.get('/v2/no/such/path')).status).to.equal(404);
    expect((await t.get('/v2/names/%E0%A4%A')).body).to.deep.equal({ reason: 'Invalid request path' });
    expect((await t.post('/v2/key-blocks/current', {})).status).to.equal(405);
  });

  it('answers unknown paths 404, a known path with another method 405, and bad or unknown hashes 400 and 404', async () => {
    const top = (await t.get('/v2/key-blocks/current')).body;
    const asked = async (path: string, post = false) => {
      const reply = post ? await t.post(path, {}) : await t.get(path);
      return [reply.status, reply.text];
    };
    // with no body, under /v2 as under /v3, as a recorded real node 7.2.2 answers
    expect(await asked('/v2/nothing')).to.deep.equal([404, '']);
    expect(await asked('/v2')).to.deep.equal([404, '']);
    expect(await asked('/v2/micro-blocks/hash/x/nothing')).to.deep.equal([404, '']);
    expect(await asked('/v2/status', true)).to.deep.equal([405, '']);
    expect((await t.get('/v2/status/')).status).to.equal(200); // a trailing slash is the same path
    expect((await t.get('/api')).status).to.equal(200);
    expect((await t.getInternal('/api')).status).to.equal(200);
    // the top key block's hash asked as a micro block, a key block and a generation; a hash with a wrong checksum
    const kh: string = top.hash;
    const bad = `${kh.slice(0, -1)}${kh.endsWith('1') ? '2' : '1'}`;
    // with the node's error code where its handler gives one: a valid hash of another kind, or no valid hash
    expect(await asked(`/v2/micro-blocks/hash/${kh}/header`)).to.deep.equal([
      400,
      '{"error_code":"invalid_prefix","reason":"Invalid hash"}',
    ]);
    expect((await t.get(`/v2/key-blocks/hash/${kh}`)).text).to.equal((await t.get('/v2/key-blocks/current')).text);
    expect(await asked(`/v2/key-blocks/hash/${bad}`)).to.deep.equal([400, '{"reason":"Invalid hash"}']);
    expect(await asked(`/v2/generations/hash/${bad}`)).to.deep.equal([
      400,
      '{"error_code":"invalid_encoding","reason":"Invalid hash"}',
    ]);
    const unknown = encode('kh', new Uint8Array(32).fill(7));
    expect(await asked(`/v2/key-blocks/hash/${unknown}`)).to.deep.equal([404, '{"reason":"Block not found"}']);
    expect(await asked(`/v2/transactions/${encode('th', new Uint8Array(32).fill(7))}`)).to.deep.equal([
      404,
      '{"reason":"Transaction not found"}',
    ]);
    expect(await asked(`/v2/transactions/${kh}`)).to.deep.equal([
      400,
      '{"error_code":"invalid_prefix","reason":"Invalid hash"}',
    ]);
  });

  it("refuses a malformed id with the node's reason, and its error code where the node's handler gives one", async () => {
    const [alice] = t.accounts as [MemoryAccount];
    const kh: string = (await t.get('/v2/key-blocks/current')).body.hash;
    const ok = alice.address.replace('ak_', 'ok_');
    const failing = (reason: string, error_code?: string) => ({ reason, ...(error_code ? { error_code } : {}) });
    // [path, body]: a valid id of another kind is invalid_prefix, anything else invalid_encoding (safe_decode)
    const cases: [string, object][] = [
      [`/v2/accounts/${ok}`, failing('Invalid public key', 'invalid_prefix')],
      ['/v2/accounts/ak_nope', failing('Invalid public key', 'invalid_encoding')],
      [`/v2/accounts/${alice.address}/hash/${ok}`, failing('Illegal hash: invalid_prefix')],
      [`/v2/accounts/${alice.address}/hash/kh_nope`, failing('Illegal hash: invalid_encoding')],
      [
        `/v2/accounts/${alice.address.replace('ak_', 'ct_')}/next-nonce`,
        failing('Invalid public key', 'invalid_prefix'),
      ],
      [`/v2/accounts/${ok}/transactions/pending`, failing('Invalid public key', 'invalid_prefix')],
      [`/v2/transactions/${kh}/info`, failing('Invalid hash: hash')],
      [`/v2/micro-blocks/hash/${kh}/transactions`, failing('Invalid hash', 'invalid_prefix')],
      [`/v2/micro-blocks/hash/${kh}/transactions/count`, failing('Invalid hash', 'invalid_prefix')],
      [`/v2/micro-blocks/hash/${kh}/transactions/index/1`, failing('Invalid hash or index')],
      [`/v2/key-blocks/hash/${ok}`, failing('Invalid hash')],
      [`/v2/contracts/${alice.address}`, failing('Invalid public key')],
      [`/v2/contracts/${alice.address}/code`, failing('Invalid public key', 'invalid_prefix')],
      [`/v2/oracles/${alice.address}`, failing('Invalid public key', 'invalid_prefix')],
      [`/v2/oracles/${ok}/queries/${kh}`, failing('Invalid public key or query ID', 'invalid_prefix')],
      [`/v2/oracles/ok_nope/queries/${kh}`, failing('Invalid public key or query ID', 'invalid_encoding')],
      [`/v2/names/hash/${kh}`, failing('Invalid name hash', 'invalid_prefix')],
      ['/v2/auctions/x.nope', failing('Name validation failed with a reason: registrar_unknown', 'registrar_unknown')],
      [`/v2/channels/${alice.address}`, failing('Invalid public key', 'invalid_prefix')],
    ];
    for (const [path, body] of cases) {
      const reply = await t.get(path);
      expect([reply.status, reply.body], path).to.deep.equal([400, body]);
    }
    const posted = await t.post('/v2/transactions', { tx: kh });
    expect([posted.status, posted.body]).to.deep.equal([400, failing('Invalid api encoding', 'invalid_prefix')]);
  });

  it('answers /transactions/{th}/info for pending, plain and contract transactions', async () => {
    const [owner] = t.accounts as [MemoryAccount];
    const built = await t.postInternal('/v2/debug/contracts/create', {
      owner_id: owner.address,
      code: DEVNODE_CONTRACT_BYTECODE,
      vm_version: 7,
      abi_version: 3,
      deposit: 0,
      amount: 0,
      gas: 1000,
      gas_price: 1000000000,
      fee: 1,
      call_data: contractCallData('init', []),
    });
    expect(built.status, built.text).to.equal(200);
    const create = await t.post('/v2/transactions', {
      tx: await owner.signTransaction(built.body.tx, { networkId: 'ae_devnet' }),
    });
    expect((await t.get(`/v2/transactions/${create.body.tx_hash}/info`)).body).to.deep.equal({
      reason: 'Tx not mined',
    });
    expect((await t.get(`/v2/transactions/${create.body.tx_hash}`)).body).to.include({
      block_height: -1,
      block_hash: 'none',
    });
    await t.node.mineKeyBlock();
    const call = await t.submit(
      'contracts/call',
      {
        caller_id: owner.address,
        contract_id: built.body.contract_id,
        abi_version: 3,
        amount: 0,
        gas: 1000,
        gas_price: 1000000000,
        fee: 1,
        call_data: contractCallData('set', [2n ** 60n]),
      },
      owner,
    );
    expect(call.status, call.text).to.equal(200);
    await t.node.mineKeyBlock();
    const info = await t.get(`/v2/transactions/${call.body.tx_hash}/info`);
    expect(info.body.call_info).to.include({
      contract_id: built.body.contract_id,
      caller_id: owner.address,
      return_type: 'ok',
    });
    expect((await t.get(`/v2/contracts/${built.body.contract_id}`)).body).to.include({
      owner_id: owner.address,
      vm_version: 7,
    });
    const spend = await t.submit(
      'transactions/spend',
      { sender_id: owner.address, recipient_id: owner.address, amount: 1, fee: 1 },
      owner,
    );
    await t.node.mineKeyBlock();
    expect((await t.get(`/v2/transactions/${spend.body.tx_hash}/info`)).body).to.deep.equal({
      reason: 'Tx has no info',
    });
  });
});

describe('devnode POST /v2/transactions with corrupted transactions', () => {
  let t: TestNode;
  before(async () => {
    t = await startTestNode();
  });
  after(() => t.node.stop());

  it('answers every random or bit-flipped transaction with 200 or 400, never a 500', async () => {
    const [from, to] = t.accounts as [MemoryAccount, MemoryAccount];
    const signed = Buffer.from(
      decode(
        await t.signed(
          'transactions/spend',
          { sender_id: from.address, recipient_id: to.address, amount: 1, fee: 1 },
          from,
        ),
      ).bytes,
    );
    let seed = 12345;
    const next = (n: number): number => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    const statuses = new Set<number>();
    for (let i = 0; i < 300; i++) {
      const bytes = Buffer.from(signed);
      if (i % 3 === 0) {
        for (let j = 0; j < bytes.length; j++) bytes[j] = next(256);
      } else {
        for (let flips = 1 + next(3); flips > 0; flips--) {
          const at = next(bytes.length);
          bytes[at] = bytes[at]! ^ (1 << next(8));
        }
      }
      const res = await t.post('/v2/transactions', { tx: encode('tx', bytes) });
      statuses.add(res.status);
      if (res.status !== 200) expect(res.body.reason, res.text).to.match(/^Invalid tx: /);
    }
    expect(
      [...statuses].every((s) => s === 200 || s === 400),
      [...statuses].join(),
    ).to.equal(true);
  });
});

describe('devnode builders with wrongly typed fields', function () {
  // about 5,600 requests, one after another: 3 s alone, ten times that on a machine shared with other work
  this.timeout(120_000);
  let t: TestNode;
  before(async () => {
    t = await startTestNode();
  });
  after(() => t.node.stop());

  it('answer 4xx with a reason for every builder and every wrongly typed field, never a 500', async () => {
    const [a] = t.accounts as [MemoryAccount];
    const valid: Record<string, unknown> = {
      sender_id: a.address,
      recipient_id: a.address,
      account_id: a.address,
      oracle_id: a.address.replace('ak_', 'ok_'),
      owner_id: a.address,
      caller_id: a.address,
      initiator_id: a.address,
      responder_id: a.address,
      from_id: a.address,
      amount: 1,
      fee: 1,
      ttl: 0,
      query_fee: 1,
      query_format: 'q',
      response_format: 'r',
      oracle_ttl: { type: 'delta', value: 5 },
      query_ttl: { type: 'delta', value: 5 },
      response_ttl: { type: 'delta', value: 5 },
      query: 'q',
      response: 'r',
      name: 'a.chain',
      name_salt: 1,
      name_ttl: 5,
      client_ttl: 5,
      name_id: encode('nm', Buffer.alloc(32)),
      commitment_id: encode('cm', Buffer.alloc(32)),
      query_id: encode('oq', Buffer.alloc(32)),
      pointers: [],
      code: 'cb_Xfbg4g==',
      call_data: 'cb_Xfbg4g==',
      vm_version: 7,
      abi_version: 3,
      deposit: 0,
      gas: 1,
      gas_price: 1,
      contract_id: encode('ct', Buffer.alloc(32)),
      channel_id: encode('ch', Buffer.alloc(32)),
      initiator_amount: 1,
      responder_amount: 1,
      channel_reserve: 1,
      lock_period: 1,
      state_hash: encode('st', Buffer.alloc(32)),
      initiator_amount_final: 1,
      responder_amount_final: 1,
    };
    const wrong: unknown[] = [
      null,
      1.5,
      -3,
      [],
      { type: 'delta' },
      { type: 'block', value: -1 },
      2n ** 300n,
      'cb_Xfbg4g==',
    ];
    const builders = [
      'transactions/spend',
      'oracles/register',
      'oracles/oracle',
      'oracles/extend',
      'oracles/query',
      'oracles/respond',
      'names/preclaim',
      'names/claim',
      'names/update',
      'names/transfer',
      'names/revoke',
      'contracts/create',
      'contracts/call',
      'channels/create',
      'channels/close/mutual',
    ];
    for (const builder of builders) {
      for (const key of Object.keys(valid)) {
        for (const value of wrong) {
          const res = await t.postInternal(`/v2/debug/${builder}`, { ...valid, [key]: value });
          expect(res.status, `${builder} ${key}=${String(value)}: ${res.text}`).to.be.below(500);
          if (res.status !== 200) expect(res.body.reason, res.text).to.be.a('string');
        }
      }
    }
  });
});
