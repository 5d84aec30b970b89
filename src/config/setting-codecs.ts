// The settings' values and the io-ts codecs that check them, for both ways a setting comes in:
// loadConfig reads the environment's text into these values, and createPetStore takes them
// from a program. One check per setting, so a value means and is refused alike either way.
// Every message ends a sentence that begins with the setting's name, never repeating the value.
import * as E from 'fp-ts/lib/Either.js';
import * as t from 'io-ts';
import { constrained, exactObject } from '../domain/codec.js';
import { eventSourceProblem, natsStreamProblem, parseNatsUrl } from './events-config.js';

/** The smallest and largest integer a setting takes. */
export type IntegerRange = { readonly min: number; readonly max: number };

/** Why `value` is not an integer from `min` to `max`, or undefined when it is. */
export const integerProblem = (value: number, { min, max }: IntegerRange): string | undefined =>
  Number.isInteger(value) && value >= min && value <= max ? undefined : `must be an integer from ${min} to ${max}`;

/** A number that is an integer of `range`. */
export const integerIn = (name: string, range: IntegerRange): t.Type<number, number, unknown> =>
  constrained<number, number>(name, t.number, (value) => integerProblem(value, range), integerProblem(Number.NaN, range)!);

/** A text setting's value, or the reason its text cannot be one. */
export const fromText = <A>(name: string, parse: (text: string) => E.Either<string, A>): t.Type<A, unknown, unknown> =>
  new t.Type<A, unknown, unknown>(
    name,
    (_u): _u is A => false,
    (u, c) => {
      const result = typeof u === 'string' ? parse(u) : E.left('must be text');
      return E.isRight(result) ? t.success(result.right) : t.failure(u, c, result.left);
    },
    (a) => a,
  );

/** A text setting checked by `problemOf`. */
export const checkedText = (name: string, problemOf: (text: string) => string | undefined): t.Type<string, unknown, unknown> =>
  fromText(name, (text) => {
    const problem = problemOf(text);
    return problem === undefined ? E.right(text) : E.left(problem);
  });

/** The request body limit `http.bodyLimitBytes` takes, in bytes: up to 64 MiB, well below the longest string V8 makes. */
export const BODY_LIMIT_BYTES_RANGE = { min: 1, max: 64 * 1024 * 1024 } as const;

/** Requests per window of so many seconds. */
export interface RequestsPerWindow {
  readonly requests: number;
  readonly windowSeconds: number;
}

/** The requests of a rate limit: seven digits at most, as PETSTORE_RATE_LIMIT writes them. */
export const RATE_LIMIT_REQUESTS_RANGE = { min: 1, max: 9_999_999 } as const;
/** The window of a rate limit, in seconds: six digits at most, about eleven days. */
export const RATE_LIMIT_WINDOW_RANGE = { min: 1, max: 999_999 } as const;

/** A rate limit: some requests per window, both whole and at least 1. */
export const RequestsPerWindowValue = exactObject(
  'RequestsPerWindow',
  {
    requests: integerIn('Requests', RATE_LIMIT_REQUESTS_RANGE),
    windowSeconds: integerIn('WindowSeconds', RATE_LIMIT_WINDOW_RANGE),
  },
  {},
);

/** Why `origin` is neither `*` nor an origin as a browser sends it in `Origin`, or undefined when it is one. */
export const corsOriginProblem = (origin: string): string | undefined =>
  origin === '*' || (URL.canParse(origin) && new URL(origin).origin === origin)
    ? undefined
    : 'must be an origin such as https://app.example (no path, no trailing slash) or *';

/** One origin that CORS allows, or `*`. */
export const CorsOrigin = checkedText('CorsOrigin', corsOriginProblem);

/** Who may read /metrics, most open first. */
export const METRICS_ACCESS = ['open', 'key', 'off'] as const;

/** Who may read /metrics: anyone who reaches the port, only holders of an API key, or nobody. */
export type MetricsAccessSetting = (typeof METRICS_ACCESS)[number];

/** One of {@link METRICS_ACCESS}. */
export const MetricsAccessValue = fromText<MetricsAccessSetting>('Metrics', (text) =>
  (METRICS_ACCESS as readonly string[]).includes(text)
    ? E.right(text as MetricsAccessSetting)
    : E.left(`must be one of ${METRICS_ACCESS.join(', ')}`),
);

/** How long a relayed event stays in the outbox, in hours: up to a year. */
export const EVENT_RETENTION_HOURS_RANGE = { min: 1, max: 8760 } as const;

/** How many attempts to one webhook endpoint are under way at once, at most. */
export const WEBHOOK_CONCURRENCY_RANGE = { min: 1, max: 100 } as const;

/** The CloudEvents `source` of every event. */
export const EventSource = checkedText('EventSource', eventSourceProblem);

/** The nats:// or tls:// URL of the NATS server. */
export const NatsUrl = fromText('NatsUrl', parseNatsUrl);

/** The name of the JetStream stream. */
export const NatsStream = checkedText('NatsStream', natsStreamProblem);

/** PETSTORE_CATEGORIES: whether a pet's categoryId must name a category. */
export const CategoriesSetting = fromText('Categories', (text) =>
  text === 'open' || text === 'registered' ? E.right<string, 'open' | 'registered'>(text) : E.left('must be open or registered'),
);
