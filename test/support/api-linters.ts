// The API linters of the field, run on docs/openapi.yaml with the project's configs: Spectral
// (.spectral.yaml: its OpenAPI rules and the OWASP API Security rules) in this process, and
// Redocly (redocly.yaml, .redocly.lint-ignore.yaml) as its pinned CLI, whose lint is not
// published apart from it at that version.
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import { Document, Ruleset, Spectral } from '@stoplight/spectral-core';
import { oas } from '@stoplight/spectral-rulesets';
import owasp from '@stoplight/spectral-owasp-ruleset';
import { load } from 'js-yaml';

// Required, not imported: Node finds no named exports in its CommonJS re-exports, and tsx and
// Node disagree on what its default import is.
const { Yaml } = createRequire(import.meta.url)('@stoplight/spectral-parsers') as typeof import('@stoplight/spectral-parsers');

export const OPENAPI_DOCUMENT = 'docs/openapi.yaml';
export const SPECTRAL_CONFIG = '.spectral.yaml';
export const REDOCLY_IGNORE_FILE = '.redocly.lint-ignore.yaml';

/** One finding, as `rule at where: message`. */
export type Finding = string;

// The rulesets .spectral.yaml may extend, by the names the Spectral CLI knows them by.
const RULESETS: Readonly<Record<string, unknown>> = { 'spectral:oas': oas, '@stoplight/spectral-owasp-ruleset': owasp };

interface SpectralConfig {
  readonly extends: readonly string[];
  readonly rules?: Record<string, unknown>;
  readonly overrides?: ReadonlyArray<{ readonly files: readonly string[]; readonly rules: Record<string, unknown> }>;
}

/** .spectral.yaml as written. */
export function spectralConfig(): SpectralConfig {
  return load(readFileSync(SPECTRAL_CONFIG, 'utf8')) as SpectralConfig;
}

/** The ruleset the Spectral CLI makes of .spectral.yaml: its `extends` names resolved, its overrides' files relative to it. */
function spectralRuleset(): Ruleset {
  const config = spectralConfig();
  const rulesets = config.extends.map((name) => {
    if (RULESETS[name] === undefined) throw new Error(`${SPECTRAL_CONFIG} extends ${name}, which this check does not load`);
    return RULESETS[name];
  });
  return new Ruleset({ ...config, extends: rulesets }, { severity: 'recommended', source: resolve(SPECTRAL_CONFIG) });
}

/** What Spectral reports on the document, at any severity. */
export async function lintWithSpectral(): Promise<Finding[]> {
  const spectral = new Spectral();
  spectral.setRuleset(spectralRuleset());
  const file = resolve(OPENAPI_DOCUMENT);
  const results = await spectral.run(new Document(readFileSync(file, 'utf8'), Yaml, file));
  return results.map((r) => `${r.code} at ${r.path.join('.')}: ${r.message}`);
}

export interface RedoclyReport {
  readonly findings: Finding[];
  /** How many findings the ignore file excepted. */
  readonly ignored: number;
}

interface RedoclyJson {
  readonly totals: { readonly ignored: number };
  readonly problems: ReadonlyArray<{ ruleId: string; message: string; location: ReadonlyArray<{ pointer: string }> }>;
}

/** What the Redocly CLI reports on the document (the ignore file applied), errors and warnings alike. */
export function lintWithRedocly(): Promise<RedoclyReport> {
  // Offline and quiet: no usage data sent, no look-up of newer versions.
  const env = { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1' };
  const args = ['node_modules/.bin/redocly', 'lint', OPENAPI_DOCUMENT, '--format=json'];
  return new Promise((done, fail) =>
    // It exits 1 when it finds an error: its report is on stdout all the same.
    execFile(process.execPath, args, { env, maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) => {
      try {
        const report = JSON.parse(stdout) as RedoclyJson;
        const findings = report.problems.map((p) => `${p.ruleId} at ${p.location.map((l) => l.pointer).join(', ')}: ${p.message}`);
        done({ findings, ignored: report.totals.ignored });
      } catch {
        fail(new Error(`redocly lint gave no report (${error?.message ?? 'exit 0'}): ${stderr}`));
      }
    }),
  );
}
