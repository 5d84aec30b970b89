// The `petstore` command line: its arguments checked (node:util parseArgs, strict), then the
// command they name run on the environment and the output it is given, answering its exit code.
// A command's module is loaded only when it runs, so that help and usage errors answer at once.
import { parseArgs } from 'node:util';
import type { Writable } from 'node:stream';
import type { CategoriesRequest } from './categories.js';
import type { KeysRequest } from './keys.js';
import { USAGE } from './support/usage.js';
import type { WebhooksRequest } from './webhooks.js';

/** Where the command line writes: answers and data on `stdout`, complaints and progress on `stderr`. */
export interface CommandLineIo {
  readonly stdout: Writable;
  readonly stderr: NodeJS.WriteStream;
}

export interface CommandLineOptions {
  /** Runs before export, import or copy is loaded: the bin tunes its heap there. */
  readonly beforeDataCommand?: () => void;
}

type Parsed = {
  positionals: string[];
  values: {
    label?: string | undefined;
    scope?: string[] | undefined;
    'expires-in'?: string | undefined;
    'expires-at'?: string | undefined;
    events?: string | undefined;
    json?: boolean | undefined;
    help?: boolean | undefined;
    out?: string | undefined;
    all?: boolean | undefined;
    quiet?: boolean | undefined;
    from?: string | undefined;
    to?: string | undefined;
  };
};

function parse(args: readonly string[]): Parsed | string {
  try {
    return parseArgs({
      args: [...args],
      options: {
        label: { type: 'string' },
        scope: { type: 'string', multiple: true },
        'expires-in': { type: 'string' },
        'expires-at': { type: 'string' },
        events: { type: 'string' },
        json: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
        out: { type: 'string' },
        all: { type: 'boolean' },
        quiet: { type: 'boolean', short: 'q' },
        from: { type: 'string' },
        to: { type: 'string' },
      },
      allowPositionals: true,
      strict: true,
    });
  } catch (err) {
    return (err as Error).message;
  }
}

function keysRequest(action: string | undefined, rest: readonly string[], values: Parsed['values']): KeysRequest | string {
  const { label, scope, 'expires-in': expiresIn, 'expires-at': expiresAt, json = false } = values;
  if (values.events !== undefined) return '--events is an option of webhooks add';
  const grants = label !== undefined || scope !== undefined || expiresIn !== undefined || expiresAt !== undefined;
  switch (action) {
    case 'create':
      return rest.length > 0
        ? `keys create takes no argument besides its options`
        : { action, label: label ?? '', scopes: scope, expiresIn, expiresAt, json };
    case 'list':
      return rest.length > 0 || grants ? 'keys list takes only --json' : { action, json };
    case 'revoke':
      return rest.length !== 1 || grants || json ? 'keys revoke takes exactly one key id' : { action, id: rest[0]! };
    default:
      return action === undefined ? 'keys needs one of create, list, revoke' : `unknown keys command "${action}"`;
  }
}

function webhooksRequest(action: string | undefined, rest: readonly string[], values: Parsed['values']): WebhooksRequest | string {
  const { events, json = false } = values;
  const argument = rest.length === 1 ? rest[0]! : undefined;
  switch (action) {
    case 'add':
      return argument === undefined ? 'webhooks add takes exactly one URL' : { action, url: argument, events, json };
    case 'list':
      return rest.length > 0 || events !== undefined ? 'webhooks list takes only --json' : { action, json };
    case 'remove':
    case 'enable':
      return argument === undefined || events !== undefined || json
        ? `webhooks ${action} takes exactly one endpoint id`
        : { action, id: argument };
    case 'deliveries':
      return argument === undefined || events !== undefined
        ? 'webhooks deliveries takes exactly one endpoint id, and --json'
        : { action, id: argument, json };
    case 'redeliver':
      return argument === undefined || events !== undefined || json
        ? 'webhooks redeliver takes exactly one event id'
        : { action, eventId: argument };
    default:
      return action === undefined
        ? 'webhooks needs one of add, list, remove, enable, deliveries, redeliver'
        : `unknown webhooks command "${action}"`;
  }
}

function categoriesRequest(action: string | undefined, rest: readonly string[]): CategoriesRequest | string {
  if (action !== 'register-used') return action === undefined ? 'categories needs register-used' : `unknown categories command "${action}"`;
  return rest.length > 0 ? 'categories register-used takes no argument' : { action };
}

/** Runs the command `args` name on the configuration `env` holds; answers its exit code (0 done, 1 failed, 2 misused). */
export async function runCommandLine(
  args: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
  io: CommandLineIo,
  options: CommandLineOptions = {},
): Promise<number> {
  const usageError = (message: string): number => {
    io.stderr.write(`petstore: ${message}\n\n${USAGE}`);
    return 2;
  };
  const output = { out: (text: string) => void io.stdout.write(text), err: (text: string) => void io.stderr.write(text) };
  const parsed = parse(args);
  if (typeof parsed === 'string') return usageError(parsed);
  const [command, ...rest] = parsed.positionals;
  if (parsed.values.help === true || command === 'help' || command === undefined) {
    io.stdout.write(USAGE);
    return command === undefined && parsed.values.help !== true ? 2 : 0;
  }
  const onlyCommand = rest.length === 0 && Object.values(parsed.values).every((value) => value === undefined);
  switch (command) {
    case 'serve':
      if (!onlyCommand) return usageError('serve takes no arguments: it is configured by the environment');
      return (await import('./serve.js')).serve(env);
    case 'migrate':
      if (!onlyCommand) return usageError('migrate takes no arguments: it is configured by the environment');
      return (await import('./migrate.js')).migrate(env);
    case 'keys': {
      const request =
        onlyOptions(parsed.values, ['label', 'scope', 'expires-in', 'expires-at', 'json']) ??
        keysRequest(rest[0], rest.slice(1), parsed.values);
      if (typeof request === 'string') return usageError(request);
      return (await import('./keys.js')).keys(request, env, output);
    }
    case 'categories': {
      const request = onlyOptions(parsed.values, []) ?? categoriesRequest(rest[0], rest.slice(1));
      if (typeof request === 'string') return usageError(request);
      return (await import('./categories.js')).categories(request, env, output);
    }
    case 'webhooks': {
      const request = onlyOptions(parsed.values, ['events', 'json']) ?? webhooksRequest(rest[0], rest.slice(1), parsed.values);
      if (typeof request === 'string') return usageError(request);
      return (await import('./webhooks.js')).webhooks(request, env, output);
    }
    case 'backup':
    case 'export':
    case 'import':
    case 'copy':
      return runDataCommand(command, parsed, env, io, options, usageError);
    default:
      return usageError(`unknown command "${command}"`);
  }
}

/** Runs backup, export, import or copy, as `parsed` asks; a misuse is told by `usageError`. */
async function runDataCommand(
  command: 'backup' | 'export' | 'import' | 'copy',
  parsed: Parsed,
  env: Readonly<Record<string, string | undefined>>,
  io: CommandLineIo,
  { beforeDataCommand = () => undefined }: CommandLineOptions,
  usageError: (message: string) => number,
): Promise<number> {
  const rest = parsed.positionals.slice(1);
  const { out, all, quiet, from, to } = parsed.values;
  const options = { quiet: quiet === true };
  switch (command) {
    case 'backup': {
      const problem = onlyOptions(parsed.values, ['quiet']) ?? (rest.length === 1 ? undefined : 'backup takes exactly one file to write');
      if (problem !== undefined) return usageError(problem);
      return (await import('./backup.js')).backup(rest[0]!, options, env, io);
    }
    case 'export': {
      const problem =
        onlyOptions(parsed.values, ['out', 'all', 'quiet']) ??
        (rest.length === 0 ? undefined : 'export takes no argument: write to a file with --out <file>');
      if (problem !== undefined) return usageError(problem);
      beforeDataCommand();
      return (await import('./export.js')).exportStore({ ...options, out, all: all === true }, env, io);
    }
    case 'import': {
      const problem = onlyOptions(parsed.values, ['quiet']) ?? (rest.length === 1 ? undefined : 'import takes exactly one file to read');
      if (problem !== undefined) return usageError(problem);
      beforeDataCommand();
      return (await import('./import.js')).importStore({ ...options, file: rest[0]! }, env, io);
    }
    case 'copy': {
      const problem =
        onlyOptions(parsed.values, ['from', 'to', 'quiet']) ??
        (rest.length > 0 || from === undefined || to === undefined
          ? 'copy takes --from <database> and --to <database>, and no argument'
          : undefined);
      if (problem !== undefined) return usageError(problem);
      beforeDataCommand();
      return (await import('./copy.js')).copyStore({ ...options, from: from!, to: to! }, env, io);
    }
  }
}

/** Why the options given are not among those `allowed`, or undefined when they are. */
function onlyOptions(values: Parsed['values'], allowed: readonly (keyof Parsed['values'])[]): string | undefined {
  const extra = (Object.keys(values) as (keyof Parsed['values'])[]).filter((name) => values[name] !== undefined && !allowed.includes(name));
  return extra.length === 0 ? undefined : `--${extra[0]} is not an option of this command`;
}
