/**
 * @module A Prometheus histogram for a hot path: each label set's child is looked up once by its caller, and an
 * observation is a bucket search and three additions. prom-client's Histogram checks and hashes the labels and
 * turns the bucket's bound into a property key at every observation: 6.0k instructions each (valgrind), paid for every
 * request the populator sends the node. Registered on a prom-client registry like its own metrics, and exported
 * the same way (prom-client's `get` shape: cumulative `_bucket` series with `le`, then `_sum` and `_count`).
 */
import type prom from 'prom-client';

/** A label set's counts: observe records one value. */
export interface LeanHistogramChild {
  observe(value: number): void;
}

/** One exported sample: prom-client's shape, `le` first as its histogram puts it. */
interface ExportedValue {
  readonly labels: Readonly<Record<string, string | number>>;
  readonly value: number;
  readonly metricName: string;
}

interface Series {
  readonly labels: Readonly<Record<string, string>>;
  /** observations per bucket (not cumulative); the last is above every bound (+Inf) */
  readonly counts: Float64Array;
  sum: number;
  count: number;
}

/** LeanHistogram is a histogram with fixed label names and buckets, registered on `registry`. */
export class LeanHistogram<L extends string> {
  readonly name: string;
  readonly help: string;
  readonly type = 'histogram';
  readonly aggregator: prom.Aggregator = 'sum';
  /** the label names, in order (prom-client's field of the same name) */
  readonly labelNames: readonly L[];
  readonly #bounds: readonly number[];
  readonly #series = new Map<string, Series>();

  constructor(
    registry: prom.Registry,
    config: { name: string; help: string; labels: readonly L[]; buckets: readonly number[] },
  ) {
    this.name = config.name;
    this.help = config.help;
    this.labelNames = config.labels;
    this.#bounds = [...config.buckets].sort((a, b) => a - b);
    registry.registerMetric(this as unknown as prom.Metric);
  }

  /** labels is the child of one label set (every label name given, as prom-client requires). */
  labels(labels: Readonly<Record<L, string>>): LeanHistogramChild {
    const values = this.labelNames.map((name) => {
      const value = labels[name];
      if (typeof value !== 'string') throw new TypeError(`${this.name}: label ${name} has no value`);
      return value;
    });
    const key = JSON.stringify(values);
    let series = this.#series.get(key);
    if (series === undefined) {
      const own = Object.fromEntries(this.labelNames.map((name, i) => [name, values[i]!]));
      series = { labels: own, counts: new Float64Array(this.#bounds.length + 1), sum: 0, count: 0 };
      this.#series.set(key, series);
    }
    const s = series;
    const bounds = this.#bounds;
    return {
      observe(value: number): void {
        if (!Number.isFinite(value)) throw new TypeError(`Value is not a valid number: ${value}`);
        let i = 0;
        while (i < bounds.length && value > bounds[i]!) i++;
        s.counts[i]!++;
        s.sum += value;
        s.count++;
      },
    };
  }

  /** get is the metric as prom-client's registry exports it (and its Histogram's `get` gives it). */
  async get(): Promise<{ name: string; help: string; type: string; values: ExportedValue[]; aggregator: string }> {
    const values: ExportedValue[] = [];
    for (const { labels, counts, sum, count } of this.#series.values()) {
      let cumulative = 0;
      this.#bounds.forEach((le, i) => {
        cumulative += counts[i]!;
        values.push({ labels: { le, ...labels }, value: cumulative, metricName: `${this.name}_bucket` });
      });
      values.push(
        { labels: { le: '+Inf', ...labels }, value: count, metricName: `${this.name}_bucket` },
        { labels: { ...labels }, value: sum, metricName: `${this.name}_sum` },
        { labels: { ...labels }, value: count, metricName: `${this.name}_count` },
      );
    }
    return { name: this.name, help: this.help, type: this.type, values, aggregator: this.aggregator };
  }

  /** reset forgets every observation (prom-client's registry resets its metrics so). */
  reset(): void {
    this.#series.clear();
  }
}
