// The variants of the project measured in the rounds of get by id beside it, each with a service
// the bench starts for the run: --jwt (an identity provider) and --tracing (an OTLP/HTTP sink).
import type { VariantReport } from '../report/variant-report.js';
import { JWT_TARGET, TRACING_TARGET } from '../scenarios/targets.js';
import { type ProjectSetup, projectCommand, type ServerName } from '../servers/servers.js';
import { startBenchIssuer } from './jwt-issuer.js';
import type { BenchOptions } from './options.js';
import { startOtlpSink } from './otlp-sink.js';
import type { ServerCommand } from './server-process.js';

export interface ProjectVariant extends VariantReport {
  readonly label: string;
  /** The project's settings beyond its default. */
  readonly env: Readonly<Record<string, string>>;
  /** The Authorization header of its requests (the bench's API key when absent). */
  readonly headers?: Record<string, string>;
  /** What the bench started for it, for the log. */
  readonly started: string;
  /** Said under its table, once the rounds are over. */
  note(): string;
  stop(): Promise<void>;
}

async function jwtVariant(): Promise<ProjectVariant> {
  const issuer = await startBenchIssuer();
  return {
    target: JWT_TARGET,
    sides: ['API key', 'JWT'],
    label: 'the project server, with a JWT',
    env: { PETSTORE_JWT_ISSUER: issuer.issuer, PETSTORE_JWT_AUDIENCE: issuer.audience },
    headers: issuer.headers,
    started: `JWT issuer on ${issuer.issuer}: discovery and one RS256 key`,
    note: () =>
      '"API key" is the project as measured in every scenario (Authorization: Bearer <its API key>); "JWT" the same project ' +
      'with PETSTORE_JWT_ISSUER and PETSTORE_JWT_AUDIENCE set to an issuer the bench started for this run (OpenID discovery and ' +
      'a JWKS of one RS256 key, on 127.0.0.1), every request carrying one RS256 access token, on its own copy of the database, ' +
      'in the same rounds. The token is verified once and then taken from the verified tokens (60 s), as a client that ' +
      'reuses its token is served.',
    stop: () => issuer.stop(),
  };
}

async function tracingVariant(): Promise<ProjectVariant> {
  const sink = await startOtlpSink();
  return {
    target: TRACING_TARGET,
    sides: ['tracing off', 'tracing on'],
    label: 'the project server, tracing every request',
    env: { OTEL_EXPORTER_OTLP_ENDPOINT: sink.endpoint, OTEL_TRACES_SAMPLER: 'always_on' },
    started: `OTLP/HTTP sink on ${sink.endpoint}`,
    misses: () => (sink.received().requests === 0 ? ['no span reached the OTLP sink'] : []),
    note: () => {
      const { requests, bytes } = sink.received();
      return (
        '"tracing off" is the project as measured in every scenario; "tracing on" the same project with ' +
        'OTEL_EXPORTER_OTLP_ENDPOINT set to an OTLP/HTTP sink the bench started for this run (on 127.0.0.1; it answers 200 ' +
        "and decodes nothing) and OTEL_TRACES_SAMPLER=always_on, every other OTEL_* setting at the SDK's default, on its own " +
        `copy of the database, in the same rounds. The sink received ${requests} export requests, ${(bytes / 1024 ** 2).toFixed(0)} MB.`
      );
    },
    stop: () => sink.stop(),
  };
}

/** The variants `options` ask for, started; stop each with {@link stopVariants}. */
export async function startVariants(options: BenchOptions): Promise<ProjectVariant[]> {
  const variants: ProjectVariant[] = [];
  try {
    if (options.jwt) variants.push(await jwtVariant());
    if (options.tracing) variants.push(await tracingVariant());
    return variants;
  } catch (fault) {
    await stopVariants(variants);
    throw fault;
  }
}

export async function stopVariants(variants: readonly ProjectVariant[]): Promise<void> {
  for (const variant of variants) await variant.stop();
}

/** The project once more, on get by id only, as `variant` sets it, on its own copy of the database. */
export function variantServer(
  root: string,
  project: ProjectSetup,
  database: (server: ServerName) => string,
  variant: ProjectVariant,
): [ServerName, ServerCommand] {
  const name = variant.target.server;
  return [
    name,
    {
      ...projectCommand(root, { ...project, database: database(name), env: variant.env }),
      scenarios: ['get-by-id'],
      ...(variant.headers !== undefined && { headers: variant.headers }),
      label: variant.label,
    },
  ];
}
