// The fallback load generator: autocannon, in the bench's own process, where wrk cannot be had.
// Latencies are kept exactly from each response (autocannon's own histogram rounds to whole
// milliseconds, too coarse at 1-2 ms).
import autocannon from 'autocannon';
import type { LoadGenerator, LoadResult, LoadSpec } from './load.js';
import { JSON_TYPE } from '../scenarios/scenarios.js';

/** The p-th percentile of `sorted` (nearest rank); NaN when it is empty. */
export const percentile = (sorted: Float64Array, p: number): number =>
  sorted.length === 0 ? Number.NaN : sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;

/** The requests connection number n sends in turn: every connections-th of the list, built afresh (autocannon keeps state in them). */
function requestsFor(spec: LoadSpec, connection: number): autocannon.Request[] {
  const mine =
    spec.requests.length < spec.connections ? spec.requests : spec.requests.filter((_, i) => i % spec.connections === connection);
  return mine.map(({ method, path, body, contentType = JSON_TYPE }) =>
    body === undefined ? { method, path } : { method, path, body, headers: { ...spec.headers, 'content-type': contentType } },
  );
}

async function runAutocannon(spec: LoadSpec): Promise<LoadResult> {
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
        headers: { ...spec.headers },
        requests: requestsFor(spec, 0),
        setupClient: (client) => client.setRequests(requestsFor(spec, connection++ % spec.connections)),
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
    requestsPerSecond: count / result.duration,
    p50Ms: percentile(sorted, 50),
    p99Ms: percentile(sorted, 99),
    responses: count + unexpected,
    failures: unexpected + result.errors,
  };
}

export const autocannonGenerator: LoadGenerator = {
  name: 'autocannon',
  describe: (connections, seconds) => `autocannon in the bench's own process, ${connections} connections, ${seconds} s`,
  caveat:
    "wrk could not be had: autocannon generates the load in the bench's own Node.js process and takes most of a core " +
    'from the server it measures, so every ratio is compressed towards 1',
  run: runAutocannon,
};
