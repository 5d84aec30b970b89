#!/usr/bin/env node
// The `petstore` command: serve, migrate, and manage the API keys and webhooks stored in the database.
// Every subcommand reads the server's configuration from the environment (PETSTORE_DB…).
// A subcommand is loaded only when it runs, so that help and usage errors answer at once.
import { parseArgs } from 'node:util';
import { setFlagsFromString } from 'node:v8';
import type { KeysRequest } from './commands/keys.js';
import { USAGE } from './commands/support/usage.js';
import type { WebhooksRequest } from './commands/webhooks.js';

const STANDARD_OUTPUT = { out: (text: string) => process.stdout.write(text), err: (text: string) => process.stderr.write(text) };

const usageError = (message: string): number => {
  process.stderr.write(`petstore: ${message}\n\n${USAGE}`);
  return 2;
};

type Parsed = {
  positionals: string[];
  values: {
    label?: string | undefined;
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
  const { label, json = false } = values;
  if (values.events !== undefined) return '--events is an option of webhooks add';
  switch (action) {
    case 'create':
      return rest.length > 0 ? `keys create takes no argument besides --label and --json` : { action, label: label ?? '', json };
    case 'list':
      return rest.length > 0 || label !== undefined ? 'keys list takes only --json' : { action, json };
    case 'revoke':
      return rest.length !== 1 || label !== undefined || json ? 'keys revoke takes exactly one key id' : { action, id: rest[0]! };
    default:
      return action === undefined ? 'keys needs one of create, list, revoke' : `unknown keys command "${action}"`;
  }
}

/**
 * Lets V8's old generation grow to 1.5 times what is alive after a full collection, not the up
 * to 4 times it allows by default. Export, import and copy keep little alive (about 20 MB), but
 * every batch they hold across a database round trip outlives the young generation; that garbage
 * piled up to the larger limit, so their peak RSS grew with the row count (a million pets: 30 to
 * 60 MB more than a hundred thousand). The limit still follows what is alive, so nothing is
 * refused. Set before the command is loaded, so that the first full collection already uses it.
 */
function keepHeapNearLiveSize(): void {
  setFlagsFromString('--heap-growing-percent=50');
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

async function main(args: readonly string[]): Promise<number> {
  const parsed = parse(args);
  if (typeof parsed === 'string') return usageError(parsed);
  const [command, ...rest] = parsed.positionals;
  if (parsed.values.help === true || command === 'help' || command === undefined) {
    process.stdout.write(USAGE);
    return command === undefined && parsed.values.help !== true ? 2 : 0;
  }
  const { label, events, json, out, all, quiet, from, to } = parsed.values;
  const onlyCommand = rest.length === 0 && [label, events, json, out, all, quiet, from, to].every((value) => value === undefined);
  const dataIo = { stdout: process.stdout, stderr: process.stderr };
  switch (command) {
    case 'serve':
      if (!onlyCommand) return usageError('serve takes no arguments: it is configured by the environment');
      return (await import('./commands/serve.js')).serve(process.env);
    case 'migrate':
      if (!onlyCommand) return usageError('migrate takes no arguments: it is configured by the environment');
      return (await import('./commands/migrate.js')).migrate(process.env);
    case 'keys': {
      const request = onlyOptions(parsed.values, ['label', 'json']) ?? keysRequest(rest[0], rest.slice(1), parsed.values);
      if (typeof request === 'string') return usageError(request);
      const { keys } = await import('./commands/keys.js');
      return keys(request, process.env, STANDARD_OUTPUT);
    }
    case 'webhooks': {
      const request = onlyOptions(parsed.values, ['events', 'json']) ?? webhooksRequest(rest[0], rest.slice(1), parsed.values);
      if (typeof request === 'string') return usageError(request);
      const { webhooks } = await import('./commands/webhooks.js');
      return webhooks(request, process.env, STANDARD_OUTPUT);
    }
    case 'backup': {
      const problem = onlyOptions(parsed.values, ['quiet']) ?? (rest.length === 1 ? undefined : 'backup takes exactly one file to write');
      if (problem !== undefined) return usageError(problem);
      return (await import('./commands/backup.js')).backup(rest[0]!, { quiet: quiet === true }, process.env, dataIo);
    }
    case 'export': {
      const problem =
        onlyOptions(parsed.values, ['out', 'all', 'quiet']) ??
        (rest.length === 0 ? undefined : 'export takes no argument: write to a file with --out <file>');
      if (problem !== undefined) return usageError(problem);
      keepHeapNearLiveSize();
      return (await import('./commands/export.js')).exportStore({ out, all: all === true, quiet: quiet === true }, process.env, dataIo);
    }
    case 'import': {
      const problem = onlyOptions(parsed.values, ['quiet']) ?? (rest.length === 1 ? undefined : 'import takes exactly one file to read');
      if (problem !== undefined) return usageError(problem);
      keepHeapNearLiveSize();
      return (await import('./commands/import.js')).importStore({ file: rest[0]!, quiet: quiet === true }, process.env, dataIo);
    }
    case 'copy': {
      const problem =
        onlyOptions(parsed.values, ['from', 'to', 'quiet']) ??
        (rest.length > 0 || from === undefined || to === undefined
          ? 'copy takes --from <database> and --to <database>, and no argument'
          : undefined);
      if (problem !== undefined) return usageError(problem);
      keepHeapNearLiveSize();
      return (await import('./commands/copy.js')).copyStore({ from: from!, to: to!, quiet: quiet === true }, process.env, dataIo);
    }
    default:
      return usageError(`unknown command "${command}"`);
  }
}

/** Why the options given are not among those `allowed`, or undefined when they are. */
function onlyOptions(values: Parsed['values'], allowed: readonly (keyof Parsed['values'])[]): string | undefined {
  const extra = (Object.keys(values) as (keyof Parsed['values'])[]).filter((name) => values[name] !== undefined && !allowed.includes(name));
  return extra.length === 0 ? undefined : `--${extra[0]} is not an option of this command`;
}

process.exitCode = await main(process.argv.slice(2));
