import { expect } from 'chai';
import { ErrorCode } from '../../../src/base/errors.ts';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import pino from 'pino';
import { NodeClient } from '../../../src/node/client.ts';
import {
  CRASHED,
  dryRun,
  fateCall,
  LASTING_ROUNDS,
  OVER_TIME_LIMIT,
  PRUNED,
  REFUSED,
  roundOutcome,
} from '../../../src/node/dry-run.ts';
import {
  badResponse,
  collectedState,
  isCollectedState,
  isOverTimeLimit,
  isUnknownTop,
  NodeError,
  overTimeLimit,
  unknownTop,
  unreachable,
} from '../../../src/node/errors.ts';
import { waitFor } from '../../support/wait.ts';
import { readExchanges } from '../../support/real-node-recording.ts';

/** the recorded 7.2.2's answer to a dry-run past its time limit (1000 call_reqs on its internal endpoint) */
const TIME_LIMITED = readExchanges('dry-run.ndjson.gz').find(
  (x) => x.label === '1000 call_reqs (gas limit)' && x.port === 'internal',
)!;

/**
 * A node answering every dry-run with one status (and results when 200), or with the status `status` gives for the
 * n-th request (1-based), recording the bodies it got.
 */
async function fakeNode(
  status: number | ((n: number) => number),
  bodies: unknown[],
): Promise<{ url: string; server: Server }> {
  const server = createServer((req, res) => {
    let text = '';
    req.on('data', (c: Buffer) => (text += c.toString()));
    req.on('end', () => {
      bodies.push(JSON.parse(text));
      const answer = typeof status === 'number' ? status : status(bodies.length);
      res.writeHead(answer, { 'content-type': 'application/json' });
      res.end(
        answer === 200
          ? '{"results":[{"result":"ok","call_obj":{"return_type":"ok","return_value":"cb_P4fvHVw="}}]}'
          : answer === TIME_LIMITED.status
            ? TIME_LIMITED.body
            : '{"reason":"no"}',
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

describe('AEX-N dry-runs against the node', () => {
  const call = [fateCall('ct_x', 'cb_y')];
  const servers: Server[] = [];
  const node = async (status: number | ((n: number) => number), bodies: unknown[] = []): Promise<string> => {
    const n = await fakeNode(status, bodies);
    servers.push(n.server);
    return n.url;
  };
  after(() => servers.forEach((s) => s.close()));

  it("ends a round without results by the nodes' answers: PRUNED, REFUSED, or a transient error to ask again", () => {
    const [gone, notFound, badRequest, overloaded, tooMany] = [410, 404, 400, 503, 429].map((s) =>
      badResponse('/dry-run', `status ${s}`, s),
    );
    expect(roundOutcome('mh_b', [gone!, gone!])).to.equal(PRUNED);
    // the node's dry-run says a garbage-collected state with a 400 (aec_dry_run), where its GETs answer 410
    const collected = collectedState('/dry-run', 'status 400');
    expect(roundOutcome('mh_b', [collected, gone!])).to.equal(PRUNED);
    expect(collected.transient).to.equal(false);
    expect(roundOutcome('mh_b', [gone!, notFound!, badRequest!])).to.equal(REFUSED);
    // a node that does not know the block (behind the others) says nothing of its state: another's pruning is the
    // answer, as the node client's GETs take a 410 over a 404; no node knowing it is a refusal (a block that left)
    const behind = unknownTop('/dry-run', 'status 400');
    expect(roundOutcome('mh_b', [collected, behind])).to.equal(PRUNED);
    expect(roundOutcome('mh_b', [behind, gone!])).to.equal(PRUNED);
    expect(roundOutcome('mh_b', [behind, behind])).to.equal(REFUSED);
    expect(roundOutcome('mh_b', [behind, collected, badRequest!])).to.equal(REFUSED);
    for (const answers of [[gone!, overloaded!], [tooMany!], [notFound!, unreachable('/dry-run', 'refused')], []]) {
      expect(() => roundOutcome('mh_b', answers), answers.map((a) => a.message).join())
        .to.throw(NodeError, /^dry-run at mh_b failed: /)
        .with.property('transient', true);
    }
    // issue 87: every node refusing for load is the asker's MDW_NODE_BUSY (the server's 503), every node away its
    // MDW_NODE_UNREACHABLE; nodes failing otherwise, or differently, a bad response
    const code = (answers: NodeError[]): unknown => {
      try {
        return roundOutcome('mh_b', answers);
      } catch (err) {
        return (err as NodeError).code;
      }
    };
    expect(code([overloaded!, tooMany!])).to.equal(ErrorCode.NODE_BUSY);
    expect(code([unreachable('/dry-run', 'refused')])).to.equal(ErrorCode.NODE_UNREACHABLE);
    expect(code([overloaded!, unreachable('/dry-run', 'refused')])).to.equal(ErrorCode.NODE_BAD_RESPONSE);
  });

  it("gives a round's error the node's 500 only when every node answered 500 (a handler that crashed)", () => {
    const [crashed, overloaded] = [500, 503].map((s) => badResponse('/dry-run', `status ${s}`, s));
    const status = (answers: NodeError[]): unknown => {
      try {
        roundOutcome('mh_b', answers);
      } catch (err) {
        return (err as NodeError).nodeStatus;
      }
      return 'no error';
    };
    expect(status([crashed!, crashed!])).to.equal(500);
    expect(status([crashed!, overloaded!])).to.equal(undefined);
    expect(status([crashed!, unreachable('/dry-run', 'refused')])).to.equal(undefined);
    expect(status([])).to.equal(undefined);
  });

  it("tells the node's dry-run refusal of a garbage-collected state from its other 400s", () => {
    const reason = (r: string): string => JSON.stringify({ reason: `Bad request: ${r}` });
    expect(isCollectedState(400, reason('Block state of given hash was garbage collected'))).to.equal(true);
    expect(isCollectedState(400, reason('state garbage collected'))).to.equal(true);
    expect(isCollectedState(400, reason('Invalid hash provided'))).to.equal(false);
    expect(isCollectedState(403, reason('Over the gas limit'))).to.equal(false);
    // the recorded 7.2.2's answer to a well-formed `top` it does not know
    expect(isUnknownTop(400, reason('Invalid hash provided'))).to.equal(true);
    expect(isUnknownTop(400, reason('Block state of given hash was garbage collected'))).to.equal(false);
    expect(isUnknownTop(404, '')).to.equal(false);
  });

  it('says PRUNED when a pruning node refuses the state and a node behind does not know the block yet', async () => {
    // a node set in front of which a creation block is pruned at one node and not yet reached by the other: asked
    // again, the round would wait for the lagging node (the detector's retry-forever while it lags, or if it stalls)
    const answering = async (reason: string): Promise<string> => {
      const server = createServer((req, res) => {
        req.resume();
        req.on('end', () => {
          res.writeHead(400, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ reason }));
        });
      });
      servers.push(server);
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    };
    const pruning = await answering('Bad request: Block state of given hash was garbage collected');
    const lagging = await answering('Bad request: Invalid hash provided');
    expect(await dryRun([lagging, pruning], 'mh_b', call, 1000)).to.equal(PRUNED);
    expect(await dryRun([pruning, lagging], 'mh_b', call, 1000)).to.equal(PRUNED);
    expect(await dryRun([lagging], 'mh_b', call, 1000)).to.equal(REFUSED);
  });

  it('reads the results, asking on top of the block given (or the top without one), each call naming its ABI', async () => {
    const bodies: unknown[] = [];
    const url = await node(200, bodies);
    expect(await dryRun([url], 'mh_b', call, 1000)).to.deep.equal([{ ok: true, value: 'cb_P4fvHVw=' }]);
    await dryRun([url], undefined, call, 1000);
    expect(bodies).to.deep.equal([
      // without abi_version a node runs the call as AEVM and refuses a FATE contract (wrong_abi_version)
      { top: 'mh_b', txs: [{ call_req: { contract: 'ct_x', calldata: 'cb_y', abi_version: 3 } }] },
      { txs: [{ call_req: { contract: 'ct_x', calldata: 'cb_y', abi_version: 3 } }] },
    ]);
  });

  it('says PRUNED when every node answered 410, REFUSED for other refusals, and asks the next node first', async () => {
    expect(await dryRun([await node(410), await node(410)], 'mh_b', call, 1000)).to.equal(PRUNED);
    expect(await dryRun([await node(410), await node(404)], 'mh_b', call, 1000)).to.equal(REFUSED);
    expect(await dryRun([await node(410), await node(200)], 'mh_b', call, 1000)).to.have.length(1);
  });

  it('throws a transient node error when a node could not answer (5xx or no connection)', async () => {
    for (const urls of [[await node(503)], ['http://127.0.0.1:1']]) {
      const err = await dryRun(urls, 'mh_b', call, 1000).catch((e: unknown) => e);
      expect(err).to.be.instanceOf(NodeError);
      expect((err as NodeError).transient).to.equal(true);
    }
  });

  it('asks every node again after a backoff while one could not answer, up to the rounds allowed', async () => {
    const retries = { attempts: 3, initialMs: 10, maxMs: 20 };
    // the first node refuses the block, the second answers 503 twice and then the results
    const refusing: unknown[] = [];
    const passing: unknown[] = [];
    const urls = [await node(404, refusing), await node((n) => (n <= 2 ? 503 : 200), passing)];
    expect(await dryRun(urls, 'mh_b', call, 1000, retries)).to.deep.equal([{ ok: true, value: 'cb_P4fvHVw=' }]);
    expect([refusing.length, passing.length]).to.deep.equal([3, 3]);
    // a node that keeps failing: the rounds end with the transient error
    const failing: unknown[] = [];
    const err = await dryRun([await node(503, failing)], 'mh_b', call, 1000, retries).catch((e: unknown) => e);
    expect((err as NodeError).transient).to.equal(true);
    expect(failing).to.have.length(3);
    // refusals are answers: no round is repeated for them
    const gone: unknown[] = [];
    expect(await dryRun([await node(410, gone)], 'mh_b', call, 1000, retries)).to.equal(PRUNED);
    expect(gone).to.have.length(1);
  });

  it('takes a replay every node answers 500 in LASTING_ROUNDS rounds in a row as CRASHED; other failures as transient', async () => {
    const replay = (urls: string[], attempts: number): Promise<unknown> =>
      new NodeClient(
        { url: urls, timeoutMs: 1000, attempts, backoffInitialMs: 1, backoffMaxMs: 2 },
        pino({ level: 'silent' }),
      )
        .replay('mh_b', ['tx_a'])
        .catch((e: unknown) => e);
    const crashing: unknown[] = [];
    expect(await replay([await node(500, crashing)], Infinity)).to.equal(CRASHED);
    expect(crashing).to.have.length(LASTING_ROUNDS);
    expect(crashing[0]).to.deep.equal({ top: 'mh_b', txs: [{ tx: 'tx_a' }], tx_events: true });
    // a round another answer ended (502: a proxy's) starts the count again
    const [first, second]: [unknown[], unknown[]] = [[], []];
    const urls = [await node((n) => (n === 2 ? 502 : 500), first), await node(500, second)];
    expect(await replay(urls, Infinity)).to.equal(CRASHED);
    expect([first.length, second.length]).to.deep.equal([LASTING_ROUNDS + 2, LASTING_ROUNDS + 2]);
    // a 503 is the node's refusal for load, waited out at its pace, never a crash: asked once, the refusal is the error
    const err = await replay([await node(503)], 1);
    expect(err).to.be.instanceOf(NodeError).and.include({ transient: true, busy: true });
    const paced: unknown[] = [];
    expect(await replay([await node((n) => (n <= LASTING_ROUNDS ? 503 : 500), paced)], Infinity)).to.equal(CRASHED);
    expect(paced, 'the refusals, then the crashes').to.have.length(2 * LASTING_ROUNDS);
    expect(await replay([await node((n) => (n < LASTING_ROUNDS ? 500 : 200))], Infinity)).to.deep.equal({
      ran: true,
      events: [],
      callObjects: [{ return_type: 'ok', return_value: 'cb_P4fvHVw=' }],
    });
  });

  it("tells the node's dry-run given up at its time limit from its other 400s, as the recorded node answered it", () => {
    expect([TIME_LIMITED.status, TIME_LIMITED.port]).to.deep.equal([400, 'internal']);
    expect(isOverTimeLimit(TIME_LIMITED.status, TIME_LIMITED.body)).to.equal(true);
    const reason = (r: string): string => JSON.stringify({ reason: `Bad request: ${r}` });
    expect(isOverTimeLimit(400, reason('Invalid hash provided'))).to.equal(false);
    expect(isOverTimeLimit(400, reason('Block state of given hash was garbage collected'))).to.equal(false);
    expect(isOverTimeLimit(403, reason('Over the gas limit'))).to.equal(false);
    // no refusal of the request: asked again (a loaded node passes its wall-clock limit sooner), never REFUSED
    const limited = overTimeLimit('/dry-run', 'status 400');
    expect(limited).to.include({ transient: true, overTimeLimit: true, gone: false, unknownBlock: false });
    const thrown = (answers: NodeError[]): unknown => {
      try {
        return roundOutcome('mh_b', answers);
      } catch (err) {
        return err;
      }
    };
    expect(thrown([limited, limited]))
      .to.be.instanceOf(NodeError)
      .and.include({ transient: true, overTimeLimit: true });
    // one node gave it up, another could not answer: nothing lasting said of the request
    const [crashed] = [500].map((s) => badResponse('/dry-run', `status ${s}`, s));
    expect(thrown([limited, crashed!])).to.include({ transient: true, overTimeLimit: false, nodeStatus: undefined });
    expect(thrown([limited, badResponse('/dry-run', 'status 404', 404)])).to.include({ overTimeLimit: false });
  });

  it('takes a replay every node gives up at its time limit in LASTING_ROUNDS rounds in a row as OVER_TIME_LIMIT', async () => {
    const replay = (urls: string[], attempts: number): Promise<unknown> =>
      new NodeClient(
        { url: urls, timeoutMs: 1000, attempts, backoffInitialMs: 1, backoffMaxMs: 2 },
        pino({ level: 'silent' }),
      )
        .replay('mh_b', ['tx_a'])
        .catch((e: unknown) => e);
    const limited: unknown[] = [];
    expect(await replay([await node(400, limited)], Infinity)).to.equal(OVER_TIME_LIMIT);
    expect(limited, 'asked again, LASTING_ROUNDS times in all').to.have.length(LASTING_ROUNDS);
    // both nodes asked in each round: neither is passed over for a request too heavy for it
    const [first, second]: [unknown[], unknown[]] = [[], []];
    expect(await replay([await node(400, first), await node(400, second)], Infinity)).to.equal(OVER_TIME_LIMIT);
    expect([first.length, second.length]).to.deep.equal([LASTING_ROUNDS, LASTING_ROUNDS]);
    // a node that passed its limit under load and then answers: the results
    expect(await replay([await node((n) => (n < LASTING_ROUNDS ? 400 : 200))], Infinity)).to.deep.equal({
      ran: true,
      events: [],
      callObjects: [{ return_type: 'ok', return_value: 'cb_P4fvHVw=' }],
    });
    // crashes and time limits in turn: neither lasts, the rounds run out and the transient error is the answer
    const err = await replay([await node((n) => (n % 2 === 0 ? 400 : 500))], 2 * LASTING_ROUNDS);
    expect(err).to.be.instanceOf(NodeError).and.include({ transient: true });
    // asked once (a client without retries): the time limit is the error, as any failure to ask again
    expect(await replay([await node(400)], 1))
      .to.be.instanceOf(NodeError)
      .and.include({ overTimeLimit: true });
  });

  it("says the nodes' time limit once per process and node, not per client, request or round, naming the setting", async () => {
    const lines: { level: number; msg: string; nodes: string[] }[] = [];
    const log = pino({ level: 'info' }, { write: (line: string) => lines.push(JSON.parse(line)) });
    const client = (url: string): NodeClient =>
      new NodeClient({ url: [url], timeoutMs: 1000, attempts: Infinity, backoffInitialMs: 1, backoffMaxMs: 2 }, log);
    const [limited, other] = [await node(400), await node(400)];
    expect(await client(limited).replay('mh_b', ['tx_a'])).to.equal(OVER_TIME_LIMIT);
    expect(await client(limited).replay('mh_c', ['tx_a'])).to.equal(OVER_TIME_LIMIT);
    // a token's balances() too: the node set's dry-runs count the rounds alike
    expect(await client(limited).dryRun('mh_b', call)).to.equal(OVER_TIME_LIMIT);
    const said = (): typeof lines => lines.filter((l) => l.msg.includes('time limit'));
    expect(said()).to.have.length(1);
    expect(said()[0]).to.include({ level: 40 });
    expect(said()[0]!.msg).to.include('http.dry_run.timeout_ms');
    // another node is said of once too
    expect(await client(other).replay('mh_b', ['tx_a'])).to.equal(OVER_TIME_LIMIT);
    expect(await client(other).replay('mh_b', ['tx_a'])).to.equal(OVER_TIME_LIMIT);
    expect(said().map((l) => l.nodes)).to.deep.equal([[limited], [other]]);
  });

  it('stops asking again once its signal aborts', async () => {
    const stop = new AbortController();
    const failing: unknown[] = [];
    const asking = dryRun([await node(503, failing)], 'mh_b', call, 1000, {
      attempts: 8,
      initialMs: 60_000,
      maxMs: 60_000,
      signal: stop.signal,
    }).catch((e: unknown) => e);
    // the first round answered (on a loaded machine it may take longer than any fixed pause), its retry pending
    await waitFor('the first round', () => failing.length === 1, 20_000, 5);
    stop.abort();
    expect(await asking).to.be.instanceOf(NodeError);
    expect(failing).to.have.length(1);
  });
});
