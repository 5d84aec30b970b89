// The bench's --jwt and --tracing options: the project once more on get by id, with a service
// the bench starts (an issuer of JWTs, an OTLP/HTTP sink), judged against the project itself.
import { expect } from 'chai';
import { startBenchIssuer } from '../../bench/harness/jwt-issuer.js';
import type { Measurement } from '../../bench/harness/measure.js';
import { parseOptions } from '../../bench/harness/options.js';
import { startOtlpSink } from '../../bench/harness/otlp-sink.js';
import { variantVerdict } from '../../bench/report/variant-report.js';
import { JWT_TARGET, TRACING_TARGET } from '../../bench/scenarios/targets.js';
import { JwtCredentialVerifier } from '../../src/adapters/jwt/jwt-credential-verifier.js';

describe('bench: the --jwt and --tracing options', () => {
  const parse = (...argv: string[]) => parseOptions(argv, {});

  for (const flag of ['jwt', 'tracing'] as const) {
    it(`--${flag} is off unless given, and measures get by id on SQLite only`, () => {
      const { [flag]: on, ...rest } = parse('--quick', `--${flag}`);
      expect(on).to.equal(true);
      expect({ ...parse('--quick'), [flag]: true }).to.deep.equal({ ...rest, [flag]: true });
      expect(() => parse(`--${flag}`, '--scale')).to.throw('not with --db or --scale');
      expect(() => parse(`--${flag}`, '--only=create')).to.throw('add it to --only');
    });
  }

  it("starts an issuer whose token the project's verifier accepts", async () => {
    const issuer = await startBenchIssuer();
    try {
      const verifier = new JwtCredentialVerifier({ issuer: issuer.issuer, audience: issuer.audience }, { now: () => new Date() });
      const check = await verifier.verify(issuer.headers['authorization']!.slice('Bearer '.length));
      expect(check.kind === 'accepted' && [...check.caller.scopes]).to.deep.equal(['pets:read', 'pets:write']);
    } finally {
      await issuer.stop();
    }
  });

  it('starts a sink that answers 200 to OTLP/HTTP exports and counts them', async () => {
    const sink = await startOtlpSink();
    try {
      const post = (path: string) => fetch(`${sink.endpoint}${path}`, { method: 'POST', body: '{"resourceSpans":[]}' });
      expect((await post('/v1/traces')).status).to.equal(200);
      expect((await post('/v1/traces')).status).to.equal(200);
      expect((await post('/v1/logs')).status).to.equal(404);
      expect(sink.received()).to.deep.equal({ requests: 2, bytes: 40 });
    } finally {
      await sink.stop();
    }
  });

  it('judges the variant against the project, by throughput, with the cost ratio beside it', () => {
    const side = (requestsPerSecond: number, serverCpuMicrosPerRequest: number) => ({
      measured: { requestsPerSecond, serverCpuMicrosPerRequest, failures: 0 } as Measurement,
    });
    const result = (server: 'jwt' | 'tracing', rps: number, cpu: number) => ({
      id: 'get-by-id',
      title: '',
      kind: 'read' as const,
      rounds: {},
      medians: { project: side(1000, 100), [server]: side(rps, cpu) },
    });
    const jwt = { target: JWT_TARGET, sides: ['API key', 'JWT'] as const };
    expect(variantVerdict(result('jwt', 950, 105), jwt)).to.deep.include({ met: true, ratio: 0.95 });
    expect(variantVerdict(result('jwt', 850, 125), jwt)).to.deep.include({
      met: false,
      misses: ['throughput 0.850 < 0.90 × API key'],
      cpuRatio: 0.8,
    });
    const tracing = {
      target: TRACING_TARGET,
      sides: ['tracing off', 'tracing on'] as const,
      misses: () => ['no span reached the OTLP sink'],
    };
    expect(variantVerdict(result('tracing', 800, 125), tracing)).to.deep.include({ met: false, misses: ['no span reached the OTLP sink'] });
  });
});
