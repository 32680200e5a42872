import { expect } from 'chai';
import { Parser } from '@oclif/core';
import Root from '../../../src/cli/commands/root.ts';
import { routeArgv } from '../../../src/cli/route.ts';
import { withoutDaemonFlag } from '../../../src/cli/daemonize.ts';
import { parseAccountFlag } from '../../../src/cli/account-flag.ts';
import { needsOwnGroup } from '../../../src/cli/own-group.ts';

describe('routeArgv(args, commands)', () => {
  const commands = ['run', 'migrate', 'devnode', 'dev', 'db:usage'];
  const cases: Array<[string[], string[]]> = [
    [
      ['-p', '-s'],
      ['run', '-p', '-s'],
    ],
    [['-H1,3-4'], ['run', '-H1,3-4']],
    [['-V'], ['--version']],
    [['--version'], ['--version']],
    [[], ['run', '--help']],
    [['--help'], ['run', '--help']],
    [
      ['migrate', '--status'],
      ['migrate', '--status'],
    ],
    [
      ['devnode', '--no-mine'],
      ['devnode', '--no-mine'],
    ],
    [
      ['db', 'usage', '--schema-prefix', 'mdw_g'],
      ['db', 'usage', '--schema-prefix', 'mdw_g'],
    ],
  ];
  for (const [args, expected] of cases) {
    it(`routes ${JSON.stringify(args)} to ${JSON.stringify(expected)}`, () =>
      expect(routeArgv(args, commands)).to.deep.equal(expected));
  }
});

describe('needsOwnGroup(args)', () => {
  it('is `mdw dev` not yet in a group of its own: its flags and --help included, no other command', () => {
    expect(needsOwnGroup(['dev'])).to.equal(true);
    expect(needsOwnGroup(['dev', '--port', '0', '--help'])).to.equal(true);
    expect(needsOwnGroup(['dev', '--port', '0', '--own-group'])).to.equal(false);
    expect(needsOwnGroup(['devnode', '--port', '0'])).to.equal(false);
    expect(needsOwnGroup(['-p', 'dev'])).to.equal(false);
    expect(needsOwnGroup([])).to.equal(false);
  });
});

describe('withoutDaemonFlag(args)', () => {
  it('removes -d and --daemonize, also inside combined short flags', () => {
    expect(withoutDaemonFlag(['-d', '-p'])).to.deep.equal(['-p']);
    expect(withoutDaemonFlag(['--daemonize', '-s'])).to.deep.equal(['-s']);
    expect(withoutDaemonFlag(['-dps'])).to.deep.equal(['-ps']);
    expect(withoutDaemonFlag(['-H', '1-3', '-d'])).to.deep.equal(['-H', '1-3']);
  });
});

describe('parseAccountFlag(value)', () => {
  it('reads SECRET:BALANCE with balances beyond 2^53', () => {
    expect(parseAccountFlag('sk_abc:100000000000000000000')).to.deep.equal({
      secretKey: 'sk_abc',
      balance: 100000000000000000000n,
    });
  });
  it('rejects a missing or non-integer balance', () => {
    expect(() => parseAccountFlag('sk_abc')).to.throw(/SECRET:BALANCE/);
    expect(() => parseAccountFlag('sk_abc:1e5')).to.throw(/SECRET:BALANCE/);
    expect(() => parseAccountFlag(':5')).to.throw(/SECRET:BALANCE/);
  });
});

describe("mdw -v --state and --sample (the root command's flags)", () => {
  const parse = (argv: string[]) => Parser.parse(argv, { flags: Root.flags, strict: true });

  it('takes --sample with --state as with --full', async () => {
    expect((await parse(['-v', '--state', '--sample', '5'])).flags).to.include({
      verify: true,
      state: true,
      sample: 5,
    });
    expect((await parse(['-v', '--full', '--sample', '5'])).flags).to.include({ verify: true, full: true, sample: 5 });
  });

  it('refuses --state with --full or -H, or without -v, and --sample with neither', async () => {
    for (const [argv, refusal] of [
      [['-v', '--state', '--full'], /--full=true cannot also be provided when using --state/],
      [['-v', '--state', '-H', '1-2'], /--heights=1-2 cannot also be provided when using --state/],
      [['--state'], /All of the following must be provided when using --state: --verify/],
      [['-v', '--sample', '5'], /One of the following must be provided when using --sample: --full, --state/],
    ] as const) {
      const err = await parse([...argv]).then(
        () => undefined,
        (e: unknown) => e as Error,
      );
      expect(err?.message, argv.join(' ')).to.match(refusal);
    }
  });
});
