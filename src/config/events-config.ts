// The change events' settings: whether the outbox records them, the CloudEvents `source`, how
// long relayed events are kept, and the NATS JetStream they are published to. NATS URLs may
// carry a user and password, or a token: no message repeats them.
import * as E from 'fp-ts/lib/Either.js';
import { hasAtAfterAuthority } from './without-password.js';

/** What the events settings are when none is given. */
export const EVENTS_DEFAULTS = {
  PETSTORE_EVENTS: 'on',
  PETSTORE_EVENT_SOURCE: '/petstore',
  PETSTORE_EVENT_RETENTION_HOURS: 24,
  PETSTORE_NATS_STREAM: 'PETSTORE',
  PETSTORE_WEBHOOK_CONCURRENCY: 20,
} as const;

/** The change events, as configured. */
export interface EventsConfig {
  /** Whether changes record events at all (off: no outbox writes, no relay). */
  readonly enabled: boolean;
  /** The CloudEvents `source` of every event: a URI reference naming this service. */
  readonly source: string;
  /** How long a relayed event stays in the outbox before it is pruned. */
  readonly retentionHours: number;
  /** The NATS server whose JetStream receives the events; undefined: no broker. */
  readonly natsUrl: string | undefined;
  /** The JetStream stream, created when absent. */
  readonly natsStream: string;
  /** How many deliveries to one webhook endpoint are under way at once, at most. */
  readonly webhookConcurrency: number;
}

/** The text when it is a nats:// (or tls://) URL, or why it is not, never repeating it. */
export function parseNatsUrl(text: string): E.Either<string, string> {
  if (!/^(nats|tls):\/\//i.test(text) || !URL.canParse(text) || new URL(text).hostname === '' || hasAtAfterAuthority(text)) {
    return E.left(
      'must be a nats:// or tls:// URL, such as nats://127.0.0.1:4222 (percent-encode special characters in a user name, password or token)',
    );
  }
  return E.right(text);
}

/** Why `name` cannot name a JetStream stream, or undefined when it can. */
export const natsStreamProblem = (name: string): string | undefined =>
  /^[A-Za-z0-9_-]{1,64}$/.test(name) ? undefined : 'must be 1 to 64 letters, digits, _ or -';

/** Why `source` cannot be a CloudEvents source, or undefined when it can. */
export const eventSourceProblem = (source: string): string | undefined =>
  source.length <= 256 && /^[\x21-\x7e]+$/.test(source)
    ? undefined
    : 'must be a URI reference of at most 256 printable characters, without spaces';
