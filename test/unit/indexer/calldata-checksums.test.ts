/** @module aepp-calldata with native checksums gives exactly the library's own results and errors. */
import { expect } from 'chai';
import { BytecodeContractCallEncoder, ContractByteArrayEncoder } from '@aeternity/aepp-calldata';
import { usesNativeChecksums, withNativeChecksums } from '../../../src/indexer/contracts/calldata-checksums.ts';
import { BYTECODE } from '../../../src/devnode/contracts/standards.ts';
import { encode } from '../../../src/chain/encoding.ts';

const ACCOUNT = encode('ak', Buffer.alloc(32, 7));
const OTHER = encode('ak', Buffer.alloc(32, 0)); // leading zero bytes: Base58's '1's

/** outcome is a call's result or the error it threw (name and message), for comparing two encoders. */
function outcome(fn: () => unknown): unknown {
  try {
    return { value: fn() };
  } catch (err) {
    return { error: err instanceof Error ? `${err.name}: ${err.message}` : String(err) };
  }
}

describe('withNativeChecksums', () => {
  const code = BYTECODE.aex9 as `cb_${string}`;
  const plain = new BytecodeContractCallEncoder(code);
  const native = withNativeChecksums(new BytecodeContractCallEncoder(code));

  it('takes hold of the installed aepp-calldata encoders (a library update that moves its internals fails here)', () => {
    expect(usesNativeChecksums(native)).to.equal(true);
    expect(usesNativeChecksums(withNativeChecksums(new ContractByteArrayEncoder()))).to.equal(true);
    expect(usesNativeChecksums(plain)).to.equal(false);
  });

  it('encodes and decodes calls, addresses included, exactly as the library does', () => {
    const calls: [string, unknown[]][] = [
      ['transfer', [ACCOUNT, 2n ** 70n]],
      ['transfer_allowance', [OTHER, ACCOUNT, 1n]],
      ['mint', [ACCOUNT, 3n]],
      ['balance', [OTHER]],
    ];
    for (const [fn, args] of calls) {
      const data = plain.encodeCall(fn, args);
      expect(native.encodeCall(fn, args)).to.equal(data);
      expect(native.decodeCall(data)).to.deep.equal(plain.decodeCall(data));
    }
  });

  it('decodes results (a map of addresses) as the library does', () => {
    const values = new ContractByteArrayEncoder();
    const balances = new Map([
      [ACCOUNT, 5n],
      [OTHER, 2n ** 64n],
    ]);
    const data = values.encodeWithType(balances, {
      name: 'map',
      keyType: { name: 'account_pubkey' },
      valueType: { name: 'int' },
    });
    const decode = (e: BytecodeContractCallEncoder): unknown =>
      (e as unknown as { decodeResult(f: string, d: string, t: string): unknown }).decodeResult('balances', data, 'ok');
    expect(decode(native)).to.deep.equal(decode(plain));
    expect([...(decode(native) as Map<string, bigint>).keys()]).to.have.members([ACCOUNT, OTHER]);
  });

  it('throws the library’s own errors for a bad checksum, a wrong prefix, bad characters and a short text', () => {
    const data = plain.encodeCall('transfer', [ACCOUNT, 1n]);
    const bytes = Buffer.from(data.slice(3), 'base64');
    bytes[bytes.length - 1]! ^= 1;
    const broken = [`cb_${bytes.toString('base64')}`, `ba${data.slice(2)}`, 'cb_!!!', 'cb_', 'cb_AAA=', 'xx'];
    for (const text of broken) {
      const expected = outcome(() => plain.decodeCall(text as `cb_${string}`));
      expect(expected).to.have.property('error');
      expect(outcome(() => native.decodeCall(text as `cb_${string}`))).to.deep.equal(expected);
    }
  });
});
