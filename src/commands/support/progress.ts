// How long work tells its progress on standard error: a bar (cli-progress) with rows done, rate
// and time left when it is a terminal; otherwise a line every few seconds (for logs); nothing
// with --quiet.
import cliProgress from 'cli-progress';

/** Rows done so far, told as they go. */
export interface Progress {
  /** `rows` more are done. */
  add(rows: number): void;
  /** The work is over (done or not): the bar is closed. */
  stop(): void;
}

export interface ProgressOptions {
  /** What is being done, a word or two ("export", "copy pets"). */
  readonly label: string;
  /** How many rows there are in all, when known. */
  readonly total: number | undefined;
  readonly quiet: boolean;
  /** Where to tell it: standard error. */
  readonly stream: NodeJS.WriteStream;
  /** Seconds between two lines when the stream is not a terminal. */
  readonly everySeconds?: number;
}

const seconds = (s: number): string =>
  s >= 3600
    ? `${Math.floor(s / 3600)} h ${Math.round((s % 3600) / 60)} min`
    : s >= 60
      ? `${Math.floor(s / 60)} min ${Math.round(s % 60)} s`
      : `${Math.round(s)} s`;

/** A progress bar, a periodic line, or nothing, as the stream and the options call for. */
export function startProgress({ label, total, quiet, stream, everySeconds = 5 }: ProgressOptions): Progress {
  if (quiet) return { add: () => undefined, stop: () => undefined };
  if (stream.isTTY) {
    const bar = new cliProgress.SingleBar(
      {
        stream,
        format: `${label} [{bar}] {percentage}% | {value}/{total} rows | {rate} rows/s | {eta_formatted} left`,
        etaBuffer: 50,
        hideCursor: true,
        clearOnComplete: false,
      },
      cliProgress.Presets.shades_classic,
    );
    const started = Date.now();
    let done = 0;
    bar.start(total ?? 0, 0, { rate: 0 });
    return {
      add: (rows) => {
        done += rows;
        if (total === undefined || done > total) bar.setTotal(done);
        bar.update(done, { rate: Math.round(done / Math.max((Date.now() - started) / 1000, 0.001)) });
      },
      stop: () => bar.stop(),
    };
  }
  const started = Date.now();
  let done = 0;
  let told = started;
  const line = () => {
    const elapsed = (Date.now() - started) / 1000;
    const rate = done / Math.max(elapsed, 0.001);
    const left = total !== undefined && rate > 0 && total > done ? `, about ${seconds((total - done) / rate)} left` : '';
    const of = total === undefined ? '' : `/${total}`;
    stream.write(`petstore: ${label}: ${done}${of} rows, ${Math.round(rate)} rows/s${left}\n`);
  };
  return {
    add: (rows) => {
      done += rows;
      if (Date.now() - told >= everySeconds * 1000) {
        told = Date.now();
        line();
      }
    },
    stop: () => undefined,
  };
}
