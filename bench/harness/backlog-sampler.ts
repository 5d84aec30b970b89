// The backlogs of an --outage run, as an operator sees them: the project's /metrics read every
// SAMPLE_EVERY_MS (open by default), each transport's events waiting in the outbox and the webhook
// deliveries not yet made. The timeline goes to the results file, to tell where an event waited.
import { request } from 'node:http';

export const SAMPLE_EVERY_MS = 2000;

/** One reading of /metrics; a gauge it did not show is absent. */
export interface BacklogSample {
  /** Seconds since the sampler started. */
  readonly atS: number;
  /** petstore_transport_events_pending, by transport (`nats`, `webhooks`, `in-process`). */
  readonly transports: Readonly<Record<string, number>>;
  /** petstore_webhook_deliveries_pending. */
  readonly deliveries?: number;
}

function metricsText(origin: string): Promise<string> {
  return new Promise((resolve) => {
    const req = request(new URL('/metrics', origin), { agent: false }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve(res.statusCode === 200 ? text : ''));
    });
    req.on('error', () => resolve(''));
    req.end();
  });
}

/** The backlogs that `text` (the Prometheus exposition) shows. */
export function backlogsOf(text: string): Omit<BacklogSample, 'atS'> {
  const transports: Record<string, number> = {};
  for (const [, transport, value] of text.matchAll(/^petstore_transport_events_pending\{transport="([^"]+)"\} (\d+)$/gm))
    transports[transport!] = Number(value);
  const deliveries = /^petstore_webhook_deliveries_pending (\d+)$/m.exec(text)?.[1];
  return { transports, ...(deliveries !== undefined && { deliveries: Number(deliveries) }) };
}

/** Reads `origin`'s /metrics every SAMPLE_EVERY_MS until stopped (one reading at a time). */
export function sampleBacklogs(origin: string): { stop(): BacklogSample[] } {
  const samples: BacklogSample[] = [];
  const started = performance.now();
  let reading: Promise<void> | undefined;
  const timer = setInterval(() => {
    reading ??= metricsText(origin)
      .then(
        (text) => void (text !== '' && samples.push({ atS: Math.round((performance.now() - started) / 100) / 10, ...backlogsOf(text) })),
      )
      .finally(() => (reading = undefined));
  }, SAMPLE_EVERY_MS);
  return {
    stop: () => {
      clearInterval(timer);
      return samples;
    },
  };
}
