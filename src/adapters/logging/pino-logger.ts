// Structured JSON logs on standard output (pino). Nothing logs request headers or keys.
import { type LevelWithSilent, type Logger, pino } from 'pino';

/**
 * How the lines reach standard output: through pino's destination (sonic-boom), in batches. A
 * line waits until `minLength` bytes are waiting, or `periodicFlushMs` have passed, and the
 * batch is written with one write(2); `maxWrite` bounds the string lines are appended to, which
 * sonic-boom measures on every line. Synchronous writes: with asynchronous ones, lines waited in
 * memory for the one write under way and the server grew by about 50 MB under load
 * (docs/decisions/0012-log-lines-in-synchronous-batches.md).
 */
export const LOG_DESTINATION = { minLength: 4000, maxWrite: 4096, periodicFlushMs: 100 } as const;

type Destination = ReturnType<typeof pino.destination>;

/**
 * Writes the lines still waiting as the process exits. On a synchronous destination `flush()`
 * writes what waits at once (less than `minLength`: one batch), and a failed write is an 'error'
 * event: pino's own listener then stops writing to a reader that has gone (EPIPE). Not
 * `flushSync()`: sonic-boom retries its failed write every 100 ms forever, and from an 'exit'
 * listener nothing but SIGKILL ends the process then.
 */
function flushOnExit(destination: Destination): void {
  try {
    destination.flush();
  } catch {
    // Any other write error, which pino passes on: the lines are lost, the exit is not held for them.
  }
}

/**
 * The service's pino logger: JSON lines on standard output, each with `service: petstore`,
 * written at most {@link LOG_DESTINATION}`.periodicFlushMs` after they are logged, and all of
 * them when the process exits, unless standard output can no longer be written. Make one per process.
 *
 * @param fields more fields of every line, asked for as it is written (the span under way's ids, when tracing)
 */
export function createLogger(level: LevelWithSilent, fields?: () => Record<string, string>): Logger {
  const destination = pino.destination({
    dest: process.stdout.fd,
    sync: true,
    minLength: LOG_DESTINATION.minLength,
    maxWrite: LOG_DESTINATION.maxWrite,
    periodicFlush: LOG_DESTINATION.periodicFlushMs,
  });
  // pino flushes an asynchronous destination on exit by itself, not a synchronous one that waits for a batch.
  process.on('exit', () => flushOnExit(destination));
  return pino({ level, base: { service: 'petstore' }, ...(fields === undefined ? {} : { mixin: fields }) }, destination);
}
