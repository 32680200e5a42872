/** @module Contract call decoding: in-process FATE, the compiler HTTP API, and failures recorded not thrown. */
import { expect } from 'chai';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ContractDecoder, toJsonValue } from '../../../src/indexer/contract-decoder.ts';
import { contractCallData, DEVNODE_CONTRACT_BYTECODE } from '../../../src/devnode/fate-contract.ts';
import { encode } from '../../../src/chain/encoding.ts';
import { parseJson } from '../../../src/chain/json.ts';

const ct = 'ct_2Zjp';
const codeOf = async (id: string): Promise<string | undefined> => (id === ct ? DEVNODE_CONTRACT_BYTECODE : undefined);

describe('ContractDecoder', () => {
  it('decodes FATE calldata and the return value in-process', async () => {
    const decoder = new ContractDecoder({ timeoutMs: 1000 });
    const big = 2n ** 100n;
    const tx = { type: 'ContractCallTx', contract_id: ct, abi_version: 3, call_data: contractCallData('set', [big]) };
    // FATE small integer 42 is the single byte 42 << 1
    const result = await decoder.decode(
      tx,
      { return_type: 'ok', return_value: encode('cb', Uint8Array.of(84)) },
      codeOf,
    );
    expect(result).to.deep.equal({ function: 'set', arguments: [big], result: 42n, decodeError: null });
    const init = await decoder.decode(
      {
        type: 'ContractCreateTx',
        code: DEVNODE_CONTRACT_BYTECODE,
        abi_version: 3,
        call_data: contractCallData('init', []),
      },
      undefined,
      codeOf,
    );
    expect(init).to.include({ function: 'init', decodeError: null });
  });

  it("decodes a revert as the reason string, not as the function's return type", async () => {
    const decoder = new ContractDecoder({ timeoutMs: 1000 });
    const tx = { type: 'ContractCallTx', contract_id: ct, abi_version: 3, call_data: contractCallData('set', [1n]) };
    // a FATE short string: one byte (length << 2 | 1), then the bytes
    const reason = Buffer.from('not allowed');
    const value = encode('cb', Uint8Array.from([(reason.length << 2) | 1, ...reason]));
    const result = await decoder.decode(tx, { return_type: 'revert', return_value: value }, codeOf);
    expect(result).to.deep.equal({ function: 'set', arguments: [1n], result: 'not allowed', decodeError: null });
  });

  it('records why a call could not be decoded instead of throwing', async () => {
    const decoder = new ContractDecoder({ timeoutMs: 1000 });
    const unknown = await decoder.decode(
      { type: 'ContractCallTx', contract_id: 'ct_unknown', abi_version: 3, call_data: 'cb_Xfbg4g==' },
      undefined,
      codeOf,
    );
    expect(unknown.decodeError).to.equal('contract bytecode unknown');
    const garbage = await decoder.decode(
      { type: 'ContractCallTx', contract_id: ct, abi_version: 3, call_data: 'cb_AAAAAAAA' },
      undefined,
      codeOf,
    );
    expect(garbage.function).to.equal(null);
    expect(garbage.decodeError).to.be.a('string').and.not.equal('');
    const aevm = await decoder.decode(
      { type: 'ContractCallTx', contract_id: ct, abi_version: '0x0001', call_data: 'cb_Xfbg4g==' },
      undefined,
      codeOf,
    );
    expect(aevm.decodeError).to.match(/COMPILER_URL/);
  });

  it("looks a called contract's code up once, and again after forgetCode (a fork may change it)", async () => {
    const decoder = new ContractDecoder({ timeoutMs: 1000 });
    const lookups: string[] = [];
    const counting = async (id: string): Promise<string | undefined> => {
      lookups.push(id);
      return codeOf(id);
    };
    const call = { type: 'ContractCallTx', contract_id: ct, abi_version: 3, call_data: contractCallData('set', [7n]) };
    for (let i = 0; i < 3; i++)
      expect(await decoder.decode(call, undefined, counting)).to.include({ function: 'set', decodeError: null });
    // an unknown contract is asked again: it may be created later
    await decoder.decode({ ...call, contract_id: 'ct_unknown' }, undefined, counting);
    await decoder.decode({ ...call, contract_id: 'ct_unknown' }, undefined, counting);
    expect(lookups).to.deep.equal([ct, 'ct_unknown', 'ct_unknown']);
    decoder.forgetCode();
    await decoder.decode(call, undefined, counting);
    expect(lookups).to.deep.equal([ct, 'ct_unknown', 'ct_unknown', ct]);
  });

  it('asks for no code the loader told it of, until forgetCode', async () => {
    const decoder = new ContractDecoder({ timeoutMs: 1000 });
    const lookups: string[] = [];
    const counting = async (id: string): Promise<string | undefined> => {
      lookups.push(id);
      return codeOf(id);
    };
    decoder.rememberCode(new Map([[ct, DEVNODE_CONTRACT_BYTECODE]]));
    const call = { type: 'ContractCallTx', contract_id: ct, abi_version: 3, call_data: contractCallData('set', [7n]) };
    expect(await decoder.decode(call, undefined, counting)).to.include({ function: 'set', decodeError: null });
    expect(lookups).to.deep.equal([]);
    decoder.forgetCode();
    await decoder.decode(call, undefined, counting);
    expect(lookups).to.deep.equal([ct]);
  });

  it('keeps remembered code within its bound, the least recently used going first', async () => {
    const decoder = new ContractDecoder({ timeoutMs: 1000 });
    const lookups: string[] = [];
    // three contracts of 3 Mi characters each pass the 8 Mi bound: the oldest is forgotten
    const huge = async (id: string): Promise<string> => {
      lookups.push(id);
      return `cb_${id.slice(-1).repeat(3 * 2 ** 20)}`;
    };
    const call = (id: string): { [k: string]: string | number } => ({
      type: 'ContractCallTx',
      contract_id: id,
      abi_version: 3,
      call_data: 'cb_Xfbg4g==',
    });
    for (const id of ['ct_a', 'ct_b', 'ct_a', 'ct_c', 'ct_a', 'ct_b']) await decoder.decode(call(id), undefined, huge);
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
      const decoder = new ContractDecoder({ compilerUrl: url, timeoutMs: 1000 });
      const result = await decoder.decode(
        { type: 'ContractCallTx', contract_id: ct, abi_version: 1, call_data: 'cb_Xfbg4g==' },
        { return_type: 'ok', return_value: 'cb_Xfbg4g==' },
        codeOf,
      );
      expect(result.function).to.equal('set');
      expect(result.arguments).to.deep.equal([{ type: 'int', value: 123456789012345678901234567890n }]);
      expect(result.decodeError).to.match(/^return value: compiler/);
      expect(seen[0]).to.deep.equal({
        path: '/decode-calldata/bytecode',
        body: { calldata: 'cb_Xfbg4g==', bytecode: DEVNODE_CONTRACT_BYTECODE, backend: 'aevm' },
      });
      expect(seen[1]!.path).to.equal('/decode-call-result/bytecode');
    });
  });

  it('turns FATE values into JSON', () => {
    expect(toJsonValue(new Map([[1n, 'a']]))).to.deep.equal([{ key: 1n, val: 'a' }]);
    expect(toJsonValue(Uint8Array.of(1, 255))).to.equal('0x01ff');
    expect(toJsonValue({ Some: [true] })).to.deep.equal({ Some: [true] });
  });
});
