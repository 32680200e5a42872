import { expect } from 'chai';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import {
  collectAllGarbage,
  HeapTrim,
  processSampler,
  trimDue,
  type HeapSample,
} from '../../../src/api/http/heap-trim.ts';
import { createLogger } from '../../../src/base/log.ts';

const log = createLogger({ logDir: undefined, logLevel: 'silent', logPretty: false }).log;
const MB = 2 ** 20;

describe('trimDue', () => {
  const slack = 64 * MB;
  const at = (rssMb: number, pressure: number, loopUtilization = 0.05): HeapSample => ({
    rssBytes: rssMb * MB,
    pressure,
    loopUtilization,
  });

  it('trims when the RSS is past the baseline by more than the slack and the burst is over', () => {
    expect(trimDue(at(400, 7), at(400, 7), 140 * MB, slack)).to.equal(true);
  });

  it('waits while requests still wait for a turn (the burst goes on), however high the RSS', () => {
    expect(trimDue(at(400, 7), at(420, 8), 140 * MB, slack)).to.equal(false);
  });

  it('waits while the event loop is busy (a burst on the APIs without turns), however high the RSS', () => {
    expect(trimDue(at(400, 7), at(420, 7, 0.9), 140 * MB, slack)).to.equal(false);
  });

  it('leaves a server within the slack of its baseline alone', () => {
    expect(trimDue(at(200, 7), at(200, 7), 140 * MB, slack)).to.equal(false);
  });
});

describe('HeapTrim', () => {
  /** a server whose RSS and pressure the test sets, and the collections HeapTrim asked for */
  function server(): { state: HeapSample; collections: number; trim: HeapTrim } {
    const s = {
      state: { rssBytes: 140 * MB, pressure: 0, loopUtilization: 0.05 },
      collections: 0,
      trim: undefined as unknown as HeapTrim,
    };
    s.trim = new HeapTrim({
      sample: () => s.state,
      log,
      everyMs: 3_600_000,
      collect: () => {
        s.collections++;
        // what the collection gives back: the RSS falls to 150 MB
        s.state = { ...s.state, rssBytes: 150 * MB };
      },
    });
    s.trim.start();
    return s;
  }

  it('collects once when a burst is over, not while it lasts, and not again at the size it came back to', () => {
    const s = server();
    try {
      // the burst: requests park, the RSS climbs
      s.state = { rssBytes: 425 * MB, pressure: 5000, loopUtilization: 0.95 };
      expect(s.trim.look()).to.equal(false);
      s.state = { rssBytes: 430 * MB, pressure: 9000, loopUtilization: 0.95 };
      expect(s.trim.look()).to.equal(false);
      expect(s.collections).to.equal(0);
      // a whole period with nobody waiting and the loop idle: the burst is over
      s.state = { ...s.state, loopUtilization: 0.05 };
      expect(s.trim.look()).to.equal(true);
      expect(s.collections).to.equal(1);
      // back at 150 MB: nothing more to give back
      expect(s.trim.look()).to.equal(false);
      s.state = { ...s.state, rssBytes: 200 * MB };
      expect(s.trim.look()).to.equal(false);
      expect(s.collections).to.equal(1);
      // the next burst, measured from the size the last one came back to
      s.state = { rssBytes: 300 * MB, pressure: 9500, loopUtilization: 0.05 };
      expect(s.trim.look()).to.equal(false);
      expect(s.trim.look()).to.equal(true);
      expect(s.collections).to.equal(2);
      // what /metrics reports of them
      expect(s.trim.counts.trims).to.equal(2);
      expect(s.trim.counts.pauseSeconds).to.be.at.least(0);
    } finally {
      s.trim.stop();
    }
  });
});

describe('processSampler', () => {
  it("reads the process's RSS, the pressure given, and how busy the event loop was since the last sample", () => {
    let pressure = 3;
    const sample = processSampler(() => pressure);
    // a busy stretch of the loop: well over half of the time since the sampler was made
    const until = performance.now() + 50;
    while (performance.now() < until);
    const busy = sample();
    expect(busy.pressure).to.equal(3);
    expect(busy.rssBytes).to.be.above(10 * MB);
    expect(busy.loopUtilization).to.be.above(0.5);
    pressure = 4;
    expect(sample().pressure).to.equal(4);
  });
});

describe('collectAllGarbage', () => {
  it('gives the pages of collected objects back to the system, which a regular collection leaves resident', async function () {
    this.timeout(60_000);
    const rss = (): number => process.memoryUsage.rss() / MB;
    // ~300 MB of objects that live long enough to reach the old space (as parked requests do), then are dropped
    let held: object[][] | undefined = [];
    for (let round = 0; round < 40; round++) {
      held.push(Array.from({ length: 20_000 }, (_, i) => ({ i, text: `${'x'.repeat(100)}${i}`, list: [i, round] })));
      await new Promise((resolve) => setImmediate(resolve));
    }
    const peak = rss();
    held = undefined;
    setFlagsFromString('--expose-gc');
    (runInNewContext('gc') as () => void)();
    const afterRegular = rss();
    collectAllGarbage();
    const afterAll = rss();
    expect(held).to.equal(undefined);
    expect(peak - afterRegular).to.be.below(100);
    expect(peak - afterAll).to.be.above(150);
  });
});
