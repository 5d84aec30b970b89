// The bench's --jwt option: the project once more on get by id, with a JWT of an issuer the
// bench starts, judged against the same with an API key.
import { expect } from 'chai';
import { startBenchIssuer } from '../../bench/harness/jwt-issuer.js';
import type { Measurement } from '../../bench/harness/measure.js';
import { parseOptions } from '../../bench/harness/options.js';
import { jwtVerdict } from '../../bench/report/jwt-report.js';
import { JwtCredentialVerifier } from '../../src/adapters/jwt/jwt-credential-verifier.js';

describe('bench: the --jwt option', () => {
  const parse = (...argv: string[]) => parseOptions(argv, {});

  it('is off unless given, and measures get by id on SQLite only', () => {
    const { jwt, ...rest } = parse('--quick', '--jwt');
    expect(jwt).to.equal(true);
    expect({ ...parse('--quick'), jwt: true }).to.deep.equal({ ...rest, jwt: true });
    expect(() => parse('--jwt', '--scale')).to.throw('not with --db or --scale');
    expect(() => parse('--jwt', '--only=create')).to.throw('add it to --only');
  });

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

  it('judges the JWT side against the API key side', () => {
    const side = (requestsPerSecond: number) => ({ measured: { requestsPerSecond, failures: 0 } as Measurement });
    const result = (jwt: number) => ({
      id: 'get-by-id',
      title: '',
      kind: 'read' as const,
      rounds: {},
      medians: { project: side(1000), jwt: side(jwt) },
    });
    expect(jwtVerdict(result(950))).to.deep.include({ met: true, ratio: 0.95 });
    expect(jwtVerdict(result(850))).to.deep.include({ met: false, misses: ['throughput 0.850 < 0.90 × API key'] });
  });
});
