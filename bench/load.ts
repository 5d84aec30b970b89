// One autocannon run against one server. Latencies are kept exactly from each response
// (autocannon's own histogram rounds to whole milliseconds, too coarse at 1-2 ms).
import autocannon from 'autocannon';

export interface LoadSpec {
  readonly origin: string;
  /** The requests connection number n sends in turn. */
  readonly requestsFor: (connection: number) => autocannon.Request[];
  readonly headers: Record<string, string>;
  readonly expectedStatus: number;
  readonly connections: number;
  readonly seconds: number;
}

export interface LoadResult {
  readonly requestsPerSecond: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly responses: number;
  /** Responses with another status than the expected one, plus connection errors (timeouts included). */
  readonly failures: number;
}

const percentile = (sorted: Float64Array, p: number): number =>
  sorted.length === 0 ? Number.NaN : sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;

export async function runLoad(spec: LoadSpec): Promise<LoadResult> {
  let latencies = new Float64Array(1 << 16);
  let count = 0;
  let unexpected = 0;
  let instance: autocannon.Instance | undefined;
  let connection = 0;
  const finished = new Promise<autocannon.Result>((resolve, reject) => {
    instance = autocannon(
      {
        url: spec.origin,
        connections: spec.connections,
        duration: spec.seconds,
        headers: spec.headers,
        requests: spec.requestsFor(0),
        setupClient: (client) => client.setRequests(spec.requestsFor(connection++)),
      },
      (err, result) => (err === null || err === undefined ? resolve(result) : reject(err)),
    );
  });
  instance!.on('response', (_client, statusCode, _bytes, responseTime) => {
    if (statusCode !== spec.expectedStatus) {
      unexpected++;
      return;
    }
    if (count === latencies.length) {
      const grown = new Float64Array(latencies.length * 2);
      grown.set(latencies);
      latencies = grown;
    }
    latencies[count++] = responseTime;
  });
  const result = await finished;
  const sorted = latencies.subarray(0, count).sort();
  return {
    // Only expected answers count: a server that fails fast must not look fast.
    requestsPerSecond: count / result.duration,
    p50Ms: percentile(sorted, 50),
    p99Ms: percentile(sorted, 99),
    responses: count + unexpected,
    failures: unexpected + result.errors,
  };
}
