/**
 * @module Conformance of every /v3 answer to ae_mdw's own schemas (issue 28). Every operation of the route table
 * (src/api/mdw/rest/operations.ts) is called over a devnode chain with every transaction type, tokens, NFTs and
 * swaps, with real ids and the parameter variants whose answers differ in shape, and each answer is validated
 * against (a) the SDK's model of that operation's answer (its generated mappers carry ae_mdw's swagger: every
 * field, its type, whether it is required), where the SDK has the operation, and (b) the response schema our
 * /mdw/v3/api document states for it (ae_mdw's shapes from its OpenAPI files, for the operations the SDK lacks).
 * A drift from ae_mdw's shapes fails here even where no SDK method reads the field. Where ae_mdw's schema is
 * itself wrong (ae_mdw answers otherwise), EXCEPTIONS names the place and why (docs/api-v3.md, "Conformance").
 */
import { expect } from 'chai';
import { Ajv, type ValidateFunction } from 'ajv';
import { V3_OPERATIONS } from '../../../src/api/mdw/rest/operations.ts';
import { TX_TYPE_NAMES } from '../../../src/api/mdw/resources/tx-query.ts';
import type { Json } from '../../../src/chain/json.ts';
import type { V3UnderTest } from './harness.ts';
import { CASES, type CasesChain, type Ids } from './route-cases.ts';
import { mapperViolations, sdkResponseMapper, summarize } from './sdk-mappers.ts';

type Obj = { [key: string]: Json };

/**
 * OPERATIONS: the route table's operations this chain answers: a hyperchain's routes answer ae_mdw's 400 on it
 * (hyperchain-guards.test.ts), and their answers are checked against the same schemas on a hyperchain
 * (hyperchain-sdk.test.ts).
 */
const OPERATIONS = V3_OPERATIONS.filter((op) => !op.path.startsWith('/hyperchain/'));

/** A place where ae_mdw's own schema (as the SDK carries it) is wrong: ae_mdw answers otherwise, as we do. */
interface Exception {
  /** the violations it explains */
  readonly violation: RegExp;
  /** the operations it applies to, if not every one */
  readonly operations?: readonly string[];
  /** the requests it applies to (a part of the path and query), if not all */
  readonly request?: string;
  readonly reason: string;
}

const BLOCKS = ['GetKeyBlocks', 'GetKeyBlock', 'GetKeyBlockMicroBlocks', 'GetMicroBlock'];

/** EXCEPTIONS: each is used by some answer (a stale one fails the last test); docs/api-v3.md says the same. */
const EXCEPTIONS: readonly Exception[] = [
  {
    violation: /\.flags: missing \(required\)$/,
    operations: BLOCKS,
    reason:
      "ae_mdw's KeyBlockExtended and MicroBlockExtended require `flags`, but ae_mdw writes the node's client " +
      'serialization of a header (aec_headers:serialize_for_client), which has it only from node 7.3: the devnode ' +
      'shows it on Arcus blocks only, and these chains run Ceres',
  },
  {
    violation: /\.(encoded_tx|state_hash): "(tx|st)_[^"]*" does not match \/\^(tx|st)_\\w\+\$\/$/,
    reason:
      "ae_mdw's pattern `^tx_\\w+$` (`^st_\\w+$`) cannot match a base64 encoding (`+`, `/`, `=`), which is what " +
      'the node and ae_mdw write for transactions and channel state hashes',
  },
  {
    violation: /^\$(\.data\[\d+\])?\.(auction|revoke): null, not (Auction|NameTx)$/,
    operations: ['GetNames', 'GetName'],
    reason:
      'ae_mdw writes `auction: null` for a name not in auction and `revoke: null` for one never revoked (Names.render_v3); its schema does not allow null',
  },
  {
    violation: /^\$\.data\[\d+\]\.kind: "(fee_\w+|reward_oracle|accounts_\w+|contracts_lima)" is not one of its enum$/,
    operations: ['GetTransfers'],
    reason:
      "ae_mdw's Transfer lists only the reward kinds, but /transfers answers every internal transfer kind (its InternalTransferEvent lists them all)",
  },
  {
    violation: /^\$\.data\[\d+\]\.type: "\w+Event" is not one of its enum$/,
    operations: ['GetAccountActivities'],
    reason:
      "ae_mdw's Activity lists only the transactions' events, but its activities are also internal transfers, name claims, token transfers and swaps",
  },
  {
    violation:
      /^\$\.data\[\d+\]\.payload\.(kind: "accounts_\w+" is not one of its enum|ref_tx_hash: null, not String)$/,
    operations: ['GetAccountActivities'],
    reason:
      "ae_mdw's activities spec lists the genesis balances' kind (`accounts_roma`, height 0), which the SDK's model of an internal transfer lacks; a key-block level transfer has no causing transaction, so `ref_tx_hash` is null",
  },
  {
    violation: /^\$(\.data\[\d+\])?\.event_supply: "-\d{16,}", not BigInt$/,
    operations: ['GetSortedAex9Tokens', 'GetAex9ByContract'],
    reason:
      'a token that burnt what it held at creation has an event_supply below -(2^53 - 1), written as its decimal text, which the SDK\'s client reads as a bigint where a JSON number would fail its conversion (docs/api-v3.md, "Balances the events cannot explain")',
  },
  {
    violation: /^\$\.amount: null, not BigInt$/,
    operations: ['GetAex9ContractAccountBalance'],
    reason:
      'an account that never held the token has no balance: `amount: null` (docs/api-v3.md), where the schema requires a number',
  },
  {
    violation: /^\$\.data\[\d+\]\.(block_hash|contract_id): "(mh|ct)_\w+", not Number$/,
    operations: ['GetAex9ContractBalances', 'GetAex9AccountBalances'],
    reason: "ae_mdw's schema types these ids as integers; ae_mdw writes them encoded, as its own examples show",
  },
  {
    violation: /^\$\.data\[\d+\]\.args\[\d+\]: .*, not String$/,
    operations: ['GetContractLogs'],
    request: 'aexn-args=true',
    reason:
      "ae_mdw's ContractLog has string args, but with `aexn-args=true` it writes a standard event's args as ids and integers",
  },
  {
    violation: /^\$\.data\[\d+\]\.block_hash: "kh_\w+" does not match \/\^mh_/,
    operations: ['GetAccountActivities'],
    reason:
      "ae_mdw's Activity has a micro block's hash, but an activity of a key block (a block reward) carries the key block's (Activities.render)",
  },
  {
    violation: /^\$\.data\[\d+\]\.payload\.tx\.(type|version): missing \(required\)$/,
    operations: ['GetAccountActivities'],
    request: 'type=claims',
    reason:
      "ae_mdw's Activity payload is a transaction's, but a NameClaimEvent's `tx` is the claim's fields alone, without type and version (Activities.render_payload: the tx module's for_client)",
  },
  {
    violation: /^\$\.data\[\d+\]\.payload\.tx\.(fee|type|version): missing \(required\)$/,
    operations: ['GetAccountActivities'],
    request: 'type=swaps',
    reason:
      "ae_mdw's Activity payload has a transaction's `tx`, but a DexSwapEvent's `tx` is a whole Transaction (block, hash, and the transaction under its own `tx`), as ae_mdw writes it (Activities.render_payload)",
  },
  {
    violation: /^\$(\.data\[\d+\])?\.base_url: null, not String$/,
    operations: ['GetSortedAex141Contracts', 'GetAex141ByContract'],
    reason:
      "a collection's meta info may have no base URL: ae_mdw writes null, as its own example shows, though its schema says string",
  },
  {
    violation: /^\$: \{"data":"?\d+"?\}, not Number$/,
    operations: ['GetTransactionsCount'],
    request: 'mb_hash=',
    reason: 'ae_mdw answers `{"data": n}` for one micro block (TxController.count), its spec a bare integer',
  },
  {
    violation: /^\$: "?\d+"?, not \w+$/,
    operations: ['GetAccountTransactionsCount'],
    request: 'type',
    reason:
      'ae_mdw answers a bare integer when `type` or `type_group` is given (TxController.count_id), its spec only the object of counts per type and field',
  },
];

/** Lists that may be empty on this chain, with why (every other list must show an item, or its check is empty). */
const MAY_BE_EMPTY: Readonly<Record<string, string>> = {
  GetPendingTransactions: 'the devnode mines every transaction it accepts at once: its mempool is empty',
};

/** route is a path with its parameters' names dropped: `/names/{id}` is `/names/*`. */
const routeOf = (path: string): RegExp => new RegExp(`^${path.replace(/\{[^}]+\}/g, '[^/]+').replace(/[.]/g, '\\.')}$`);

/** describeConformance is the conformance suite over the cases' chain, which route-cases.test.ts starts. */
export function describeConformance(chain: CasesChain): void {
  describe("/v3 conformance: every operation's answers against ae_mdw's schemas (the SDK's models) and /v3/api", function () {
    let v3: V3UnderTest;
    let ids: Ids;
    let document: { paths: Record<string, { get: { responses: Record<string, unknown> } }> };
    const ajv = new Ajv({ strict: false, allErrors: true });
    const validators = new Map<string, ValidateFunction>();
    const usedExceptions = new Set<Exception>();
    /** the operations whose every answer was checked (exceptions are judged stale only after all of them) */
    const checked = new Set<string>();

    before(async () => {
      ({ v3, ids } = chain);
      const api = await v3.get('/mdw/v3/api');
      document = JSON.parse(api.text);
      ajv.addSchema({ $id: 'doc', components: (document as unknown as { components: unknown }).components });
    });
    it('has a case for every operation of the route table, and none for an operation it lacks', () => {
      const missing = OPERATIONS.filter((op) => CASES[op.operationId] === undefined).map(
        (op) => `${op.operationId} (/v3${op.path}): add its requests to CASES in test/integration/v3/route-cases.ts`,
      );
      expect(missing, 'operations without a conformance case').to.deep.equal([]);
      const known = new Set(OPERATIONS.map((op) => op.operationId));
      expect(Object.keys(CASES).filter((id) => !known.has(id))).to.deep.equal([]);
    });

    it('the SDK knows the operations it is expected to know (a mapping mistake would skip its check silently)', () => {
      const withModel = OPERATIONS.filter((op) => sdkResponseMapper(`/v3${op.path}`) !== undefined);
      expect(withModel.length).to.be.at.least(60);
    });

    // HCVoteTx is a hyperchain's (the devnode's --hc-votes), and the SDK's models know none
    it("runs over a chain with every transaction type the devnode makes (all but a hyperchain's HCVoteTx)", () => {
      expect([...TX_TYPE_NAMES.values()].filter((type) => !ids.txByType.has(type))).to.deep.equal(['HCVoteTx']);
    });

    it('finds a drift: a field missing, of another type, or null where the schemas allow none', async () => {
      const request = `/transactions/${String(ids.txByType.get('SpendTx')!.hash)}`;
      const answer = JSON.parse((await v3.get(`/mdw/v3${request}`)).text) as Obj;
      const drifted: Obj = {
        ...answer,
        micro_index: 'one',
        signatures: null,
        tx: { ...(answer.tx as Obj), fee: true },
      };
      delete drifted.block_hash;
      const model = sdkResponseMapper('/v3/transactions/{hash}')!;
      const unexcused = (value: Obj): string[] =>
        mapperViolations(model, value).filter((v) => !excused('GetTransaction', request, v));
      expect(unexcused(answer)).to.deep.equal([]);
      expect(unexcused(drifted)).to.have.members([
        '$.block_hash: missing (required)',
        '$.micro_index: "one", not Number',
        '$.signatures: null, not Sequence',
        '$.tx.fee: true, not BigInt',
      ]);
      const validate = documentValidator('/transactions/{hash}');
      expect(validate(answer)).to.equal(true);
      expect(validate(drifted)).to.equal(false);
    });

    for (const op of OPERATIONS) {
      it(`${op.operationId}: /v3${op.path}`, async function () {
        const requests = CASES[op.operationId]?.(ids);
        if (!requests) this.skip(); // the first test names it
        const model = sdkResponseMapper(`/v3${op.path}`);
        const validate = documentValidator(op.path);
        let items = 0;
        for (const request of requests) {
          const path = request.split('?')[0]!;
          expect(routeOf(op.path).test(path), `${request} is a request of ${op.path}`).to.equal(true);
          for (const intAsString of [false, true]) {
            const url = intAsString ? `${request}${request.includes('?') ? '&' : '?'}int-as-string=true` : request;
            const res = await v3.get(`/mdw/v3${url}`);
            expect(res.status, `${url}: ${res.text.slice(0, 300)}`).to.equal(200);
            if (model) {
              const violations = mapperViolations(model, res.body, { intAsString }).filter(
                (violation) => !excused(op.operationId, url, violation),
              );
              const against = `${url} against the SDK's ${model.type.className ?? model.type.name}`;
              expect(violations.length, `${against}:\n  ${summarize(violations).join('\n  ')}\n`).to.equal(0);
            }
            if (intAsString) continue;
            expect(
              validate(JSON.parse(res.text)),
              `${url} against /v3/api: ${ajv.errorsText(validate.errors)}`,
            ).to.equal(true);
            const body = res.body as { data?: unknown };
            items += Array.isArray(body.data) ? body.data.length : 1;
          }
        }
        if (!(op.operationId in MAY_BE_EMPTY))
          expect(items, `${op.operationId}: some answer has an item`).to.be.above(0);
        checked.add(op.operationId);
      });
    }

    it("answers a malformed id of every operation that takes one with ae_mdw's error, as both schemas state it", async () => {
      for (const op of OPERATIONS.filter((o) => o.path.includes('{'))) {
        const request = op.path.replace(/\{[^}]+\}/g, 'x_bad');
        const res = await v3.get(`/mdw/v3${request}`);
        // a name's lists take a plain name, as ae_mdw's do: `x_bad.chain`, which has none
        const expected = op.path.startsWith('/names/') && op.path.split('/').length > 3 ? [200, 400, 404] : [400, 404];
        expect(expected, `${request}: ${res.status} ${res.text}`).to.include(res.status);
        const model = sdkResponseMapper(`/v3${op.path}`, res.status);
        if (model) expect(mapperViolations(model, res.body), request).to.deep.equal([]);
        const validate = documentValidator(op.path, String(res.status));
        expect(validate(JSON.parse(res.text)), `${request}: ${ajv.errorsText(validate.errors)}`).to.equal(true);
      }
    });

    it('used every exception it names (a stale one is removed, with its note in docs/api-v3.md)', function () {
      if (checked.size < OPERATIONS.length) this.skip(); // an operation failed or was not run: not judged
      expect(EXCEPTIONS.filter((e) => !usedExceptions.has(e)).map((e) => e.reason)).to.deep.equal([]);
    });

    /** documentValidator validates an answer of the operation at `path` against its schema in /v3/api (200 unless `status`). */
    function documentValidator(path: string, status = '200'): ValidateFunction {
      const response = document.paths[path]?.get.responses[status] as
        { content: { 'application/json': { schema: unknown } } } | undefined;
      expect(response, `/v3/api documents ${path} answering ${status}`).not.to.equal(undefined);
      const schema = JSON.stringify(response!.content['application/json'].schema).replaceAll(
        '"#/components',
        '"doc#/components',
      );
      // one compile a schema: the operations' error answers share theirs (ajv knows a schema by its object, not its text)
      let validate = validators.get(schema);
      if (!validate) validators.set(schema, (validate = ajv.compile(JSON.parse(schema))));
      return validate;
    }

    /** excused tells whether an exception explains `violation` of a request of `operationId` (and records its use). */
    function excused(operationId: string, request: string, violation: string): boolean {
      const exception = EXCEPTIONS.find(
        (e) =>
          (e.operations === undefined || e.operations.includes(operationId)) &&
          (e.request === undefined || request.includes(e.request)) &&
          e.violation.test(violation),
      );
      if (exception) usedExceptions.add(exception);
      return exception !== undefined;
    }
  });
}
