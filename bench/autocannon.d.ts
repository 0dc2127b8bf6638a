// The part of autocannon's API the benchmarks use (the package ships no types).
declare module 'autocannon' {
  interface TAutocannonRequest {
    method?: string;
    path?: string;
    body?: string;
    headers?: Record<string, string>;
    setupRequest?: (request: Record<string, unknown>, context: Record<string, unknown>) => Record<string, unknown>;
  }
  interface TAutocannonOptions {
    /** One target, or several: autocannon spreads its connections over them in turn. */
    url: string | string[];
    connections?: number;
    duration?: number;
    headers?: Record<string, string>;
    requests?: TAutocannonRequest[];
  }
  interface TStats {
    average: number;
    p50: number;
    p99: number;
  }
  interface TAutocannonResult {
    /** `total`: requests answered. */
    requests: TStats & { total: number };
    latency: TStats;
    throughput: TStats;
    non2xx: number;
    errors: number;
    timeouts: number;
  }
  function autocannon(options: TAutocannonOptions): Promise<TAutocannonResult>;
  export default autocannon;
}
