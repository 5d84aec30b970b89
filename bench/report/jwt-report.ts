// The JWT access tokens' cost (--jwt): get by id with a JWT over the same with an API key, the
// project's two sides measured in the same rounds (docs/decisions/0025-jwt-access-tokens.md).
import { measuredOf } from '../harness/measure.js';
import type { ScenarioResult } from '../harness/run-scenarios.js';
import { JWT_TARGET, type Verdict } from '../scenarios/targets.js';
import type { Table } from './report.js';

const { server, of, least } = JWT_TARGET;

/** The JWT side's throughput over the API key's, and whether it meets the target; absent when either was not measured. */
export function jwtVerdict(r: ScenarioResult): (Verdict & { readonly ratio: number }) | undefined {
  const token = measuredOf(r.medians[server]);
  const key = measuredOf(r.medians[of]);
  if (token === undefined || key === undefined) return undefined;
  const ratio = token.requestsPerSecond / key.requestsPerSecond;
  const misses: string[] = [];
  if (!(ratio >= least)) misses.push(`throughput ${ratio.toFixed(3)} < ${least.toFixed(2)} × API key`);
  if (token.failures + key.failures > 0) misses.push('failed requests');
  return { met: misses.length === 0, speedJudged: true, misses, ratio };
}

const ms = (value: number | undefined): string => (value === undefined ? '—' : value.toFixed(2));

/** One row per scenario measured with both credentials (get by id). */
export function jwtTable(results: readonly ScenarioResult[]): Table {
  return {
    header: [
      'scenario',
      'API key req/s',
      'JWT req/s',
      `JWT ÷ API key (target ≥ ${least.toFixed(2)})`,
      'p99 ms API key / JWT',
      'µs CPU/request API key / JWT',
      'target met?',
    ],
    rows: results.flatMap((r) => {
      if (r.rounds[server] === undefined) return [];
      const token = measuredOf(r.medians[server]);
      const key = measuredOf(r.medians[of]);
      const verdict = jwtVerdict(r);
      return [
        [
          r.title,
          key?.requestsPerSecond.toFixed(0) ?? '—',
          token?.requestsPerSecond.toFixed(0) ?? '—',
          verdict?.ratio.toFixed(2) ?? '—',
          `${ms(key?.p99Ms)} / ${ms(token?.p99Ms)}`,
          `${key?.serverCpuMicrosPerRequest.toFixed(0) ?? '—'} / ${token?.serverCpuMicrosPerRequest.toFixed(0) ?? '—'}`,
          verdict === undefined ? '— (not judged: a side was not measured)' : verdict.met ? 'yes' : `no: ${verdict.misses.join(', ')}`,
        ],
      ];
    }),
  };
}

/** The JWT figures as the results file keeps them, beside the scenarios. */
export const jwtSummary = (results: readonly ScenarioResult[]) =>
  results.flatMap((r) => {
    const verdict = jwtVerdict(r);
    return verdict === undefined
      ? []
      : [{ scenario: r.id, target: JWT_TARGET, ratio: verdict.ratio, met: verdict.met, misses: verdict.misses }];
  });

/** Said under the JWT table. */
export const JWT_NOTE =
  '"API key" is the project as measured in every scenario (Authorization: Bearer <its API key>); "JWT" the same project ' +
  'with PETSTORE_JWT_ISSUER and PETSTORE_JWT_AUDIENCE set to an issuer the bench started for this run (OpenID discovery and ' +
  'a JWKS of one RS256 key, on 127.0.0.1), every request carrying one RS256 access token, on its own copy of the database, ' +
  'in the same rounds. The token is verified once and then taken from the verified tokens (60 s), as a client that ' +
  'reuses its token is served.';
