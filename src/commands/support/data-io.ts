// Where the data commands write: their data (an export) and answers on standard output, their
// progress and complaints on standard error.
import type { Writable } from 'node:stream';

export interface DataIo {
  readonly stdout: Writable;
  readonly stderr: NodeJS.WriteStream;
}

/** What the data commands were told besides their arguments. */
export interface DataOptions {
  /** No progress at all. */
  readonly quiet: boolean;
}
