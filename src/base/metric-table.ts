/**
 * @module Metrics declared as data: a table of each metric's type, name, help, labels and buckets, which one helper
 * registers. A role's metrics file is then its table (what the dashboards, alerts and docs name) and the few
 * collectors that read a value at scrape time.
 */
import type prom from 'prom-client';
import { Counter, Gauge, Histogram } from './prom.ts';

interface Declared<L extends string> {
  readonly name: string;
  readonly help: string;
  readonly labels?: readonly L[];
}

export interface CounterDeclaration<L extends string = string> extends Declared<L> {
  readonly type: 'counter';
}

export interface GaugeDeclaration<L extends string = string> extends Declared<L> {
  readonly type: 'gauge';
}

export interface HistogramDeclaration<L extends string = string> extends Declared<L> {
  readonly type: 'histogram';
  readonly buckets: readonly number[];
}

export type MetricDeclaration = CounterDeclaration | GaugeDeclaration | HistogramDeclaration;

/** MetricTable names each declaration by the field its role reads the metric from. */
export type MetricTable = Readonly<Record<string, MetricDeclaration>>;

type LabelsOf<D> = D extends { readonly labels: readonly (infer L extends string)[] } ? L : string;

/** MetricOf is the prom-client metric a declaration registers, with its label names. */
export type MetricOf<D extends MetricDeclaration> = D extends { readonly type: 'counter' }
  ? prom.Counter<LabelsOf<D>>
  : D extends { readonly type: 'gauge' }
    ? prom.Gauge<LabelsOf<D>>
    : prom.Histogram<LabelsOf<D>>;

/** MetricsOf is a registered table: each declaration's metric under its field. */
export type MetricsOf<T extends MetricTable> = { readonly [K in keyof T]: MetricOf<T[K]> };

/** Collectors read some metrics of a table at scrape time (prom-client's `collect`), by field. */
export type Collectors<T extends MetricTable> = {
  readonly [K in keyof T]?: (metric: MetricOf<T[K]>) => void | Promise<void>;
};

/** registerMetrics registers every metric of `table` on `registry` (never the default one), with its collector. */
export function registerMetrics<const T extends MetricTable>(
  registry: prom.Registry,
  table: T,
  collectors: Collectors<T> = {},
): MetricsOf<T> {
  const entries = Object.entries(table).map(([field, declaration]) => {
    const collector = collectors[field] as ((metric: unknown) => void | Promise<void>) | undefined;
    const configuration = {
      name: declaration.name,
      help: declaration.help,
      labelNames: declaration.labels ?? [],
      registers: [registry],
      ...(collector && {
        collect(this: unknown) {
          return collector(this);
        },
      }),
    };
    const metric =
      declaration.type === 'counter'
        ? new Counter(configuration)
        : declaration.type === 'gauge'
          ? new Gauge(configuration)
          : new Histogram({ ...configuration, buckets: [...declaration.buckets] });
    return [field, metric];
  });
  return Object.fromEntries(entries) as MetricsOf<T>;
}
