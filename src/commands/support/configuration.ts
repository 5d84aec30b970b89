// The configuration every command starts from: read from the environment, or, when it is
// invalid, each problem told on standard error (or the command's own error output).
import type { Logger } from 'pino';
import { createProcessLogger } from '../../composition/index.js';
import { type Config, loadConfig } from '../../config/config.js';
import { tracingConfigured } from '../../config/tracing-config.js';

/** The configuration `env` describes; undefined once its problems are written after `heading`. */
export function configurationOrComplaint(
  env: Readonly<Record<string, string | undefined>>,
  heading: string,
  complain: (text: string) => void = (text) => process.stderr.write(text),
): Config | undefined {
  const loaded = loadConfig(env);
  if (loaded._tag === 'Right') return loaded.right;
  complain(`petstore: ${heading}:\n${loaded.left.map((problem) => `  ${problem}\n`).join('')}`);
  return undefined;
}

/** The configuration `env` describes and the process's logger at its level; undefined once its problems are written after `heading`. */
export function configuredProcess(
  env: Readonly<Record<string, string | undefined>>,
  heading: string,
): { readonly config: Config; readonly logger: Logger } | undefined {
  const config = configurationOrComplaint(env, heading);
  return config === undefined ? undefined : { config, logger: createProcessLogger(config.logLevel, tracingConfigured(env)) };
}
