import type { Metric, MetricValue, MetricValueWithName, Registry } from 'prom-client';

type TLabels = { method: string; route: string; status: string };

interface TRequestStat {
  labels: TLabels;
  count: number;
  sum: number;
  /** Requests per bucket (not cumulative): `buckets[i]` counts durations in (bounds[i - 1], bounds[i]]. */
  buckets: number[];
}

/**
 * The request counter and duration histogram of /metrics, by method, route template and status:
 * plain numbers per label set, turned into prom-client's values only when /metrics is scraped.
 * prom-client's own Counter and Histogram check and hash the labels of every observation, even
 * through a labelled child: about 1 µs of every request (bench/README.md, issue 22). The text they
 * render is the same as prom-client's (a counter, and a histogram with `le` first).
 */
export class RequestStats {
  private readonly stats = new Map<string, TRequestStat>();

  constructor(
    private readonly names: { requests: string; duration: string },
    private readonly bounds: readonly number[],
  ) {}

  observe(method: string, route: string, status: number, seconds: number): void {
    const key = `${method} ${status} ${route}`;
    let stat = this.stats.get(key);
    if (!stat) {
      stat = { labels: { method, route, status: String(status) }, count: 0, sum: 0, buckets: this.bounds.map(() => 0) };
      this.stats.set(key, stat);
    }
    stat.count++;
    stat.sum += seconds;
    const bucket = this.bounds.findIndex((bound) => seconds <= bound);
    if (bucket >= 0) stat.buckets[bucket]!++;
  }

  /** Registers both metrics in `registry`, with their help texts. */
  register(registry: Registry, help: { requests: string; duration: string }): void {
    registry.registerMetric(this.metric(this.names.requests, help.requests, 'counter', () => this.counterValues()));
    registry.registerMetric(this.metric(this.names.duration, help.duration, 'histogram', () => this.histogramValues()));
  }

  private counterValues(): MetricValue<string>[] {
    return [...this.stats.values()].map(({ labels, count }) => ({ labels, value: count }));
  }

  private histogramValues(): MetricValueWithName<string>[] {
    const name = this.names.duration;
    return [...this.stats.values()].flatMap(({ labels, count, sum, buckets }) => {
      let cumulative = 0;
      const values: (MetricValueWithName<string> & { sharedLabels?: TLabels })[] = this.bounds.map((bound, index) => {
        cumulative += buckets[index]!;
        return { labels: { le: bound }, sharedLabels: labels, value: cumulative, metricName: `${name}_bucket` };
      });
      values.push(
        { labels: { le: '+Inf' }, sharedLabels: labels, value: count, metricName: `${name}_bucket` },
        { labels: {}, sharedLabels: labels, value: sum, metricName: `${name}_sum` },
        { labels: {}, sharedLabels: labels, value: count, metricName: `${name}_count` },
      );
      return values;
    });
  }

  /**
   * A metric as prom-client's registry reads one: its name, and its values at scrape time, with the
   * histogram's labels shared by its lines for the text format and merged into each for JSON.
   */
  private metric(
    name: string,
    help: string,
    type: 'counter' | 'histogram',
    values: () => (MetricValue<string> & { sharedLabels?: TLabels })[],
  ): Metric {
    const read = (merge: boolean) => {
      const current = values();
      return {
        name,
        help,
        type,
        aggregator: 'sum',
        values: merge
          ? current.map(({ sharedLabels, ...value }) => ({ ...value, labels: { ...value.labels, ...sharedLabels } }))
          : current,
      };
    };
    return {
      name,
      get: async () => read(true),
      getForPromString: async () => read(false),
      reset: () => this.stats.clear(),
    } as unknown as Metric;
  }
}
