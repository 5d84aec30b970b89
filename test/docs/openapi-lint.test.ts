// docs/openapi.yaml passes the API security linters of the field: Spectral's OpenAPI rules
// and the OWASP API Security rules (.spectral.yaml), and Redocly's recommended rules
// (redocly.yaml). What they would report and is true of the service by design is excepted in
// those configs, and each exception is explained in the table of docs/security.md.
import { readFileSync } from 'node:fs';
import { expect } from 'chai';
import { load } from 'js-yaml';
import {
  lintWithRedocly,
  lintWithSpectral,
  OPENAPI_DOCUMENT,
  REDOCLY_IGNORE_FILE,
  type RedoclyReport,
  spectralConfig,
} from '../support/api-linters.js';

const SECURITY_DOC = 'docs/security.md';
const EXCEPTIONS_HEADING = '## What the API linters report, and why';

/** The rules .spectral.yaml turns off, for the whole document or for some of its parts. */
function spectralRulesOff(): string[] {
  const config = spectralConfig();
  const off = (rules: Record<string, unknown> = {}) => Object.keys(rules).filter((rule) => rules[rule] === 'off');
  return [...off(config.rules), ...(config.overrides ?? []).flatMap((o) => off(o.rules))];
}

/** The rules of the Redocly ignore file, and how many findings it excepts in all. */
function redoclyExceptions(): { rules: string[]; count: number } {
  const byRule = (load(readFileSync(REDOCLY_IGNORE_FILE, 'utf8')) as Record<string, Record<string, string[]>>)[OPENAPI_DOCUMENT] ?? {};
  return { rules: Object.keys(byRule), count: Object.values(byRule).flat().length };
}

/** The rules named in the first column of the exceptions table of docs/security.md. */
function explainedRules(): Set<string> {
  const page = readFileSync(SECURITY_DOC, 'utf8');
  const start = page.indexOf(EXCEPTIONS_HEADING);
  const end = page.indexOf('\n## ', start + 1);
  const section = page.slice(start, end === -1 ? undefined : end);
  return new Set([...section.matchAll(/^\|\s*`([^`]+)`/gm)].map((m) => m[1]!));
}

describe('the OpenAPI document, linted', function () {
  // A few seconds of work; more on a machine shared with other jobs.
  this.timeout(60_000);
  let redocly: Promise<RedoclyReport>;
  // Redocly runs as a child process, beside Spectral in this one.
  before(() => {
    redocly = lintWithRedocly();
    // Awaited by its own test; until then a failure must not count as unhandled.
    redocly.catch(() => undefined);
  });

  it("passes Spectral's OpenAPI rules and the OWASP API Security rules, but the exceptions of .spectral.yaml", async () => {
    expect(await lintWithSpectral()).to.deep.equal([]);
  });

  it("passes Redocly's recommended rules, and each exception of the ignore file is still needed", async () => {
    const report = await redocly;
    expect(report.findings).to.deep.equal([]);
    expect(report.ignored, `findings ${REDOCLY_IGNORE_FILE} excepts`).to.equal(redoclyExceptions().count);
  });

  it(`explains in ${SECURITY_DOC} every rule turned off or excepted, and no other`, () => {
    const explained = explainedRules();
    const excepted = new Set([...spectralRulesOff(), ...redoclyExceptions().rules]);
    expect(
      [...excepted].filter((rule) => !explained.has(rule)),
      'not explained',
    ).to.deep.equal([]);
    expect(
      [...explained].filter((rule) => !excepted.has(rule)),
      'explained, but no longer excepted',
    ).to.deep.equal([]);
  });
});
