#!/usr/bin/env node
// The `petstore` command: serve, migrate, and manage the API keys, webhooks and data stored in
// the database (commands/command-line.ts), on this process's arguments, environment and output.
import { setFlagsFromString } from 'node:v8';
import { runCommandLine } from './commands/command-line.js';

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

process.exitCode = await runCommandLine(
  process.argv.slice(2),
  process.env,
  { stdout: process.stdout, stderr: process.stderr },
  { beforeDataCommand: keepHeapNearLiveSize },
);
