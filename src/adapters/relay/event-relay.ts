// The relay as a process runs it: passes of relayEvents whenever the outbox says an event was
// recorded, and every poll interval besides, only while this process holds the relay's lease
// (one active relay per database, whatever the number of workers or instances). A pass that a
// transport refused is tried again with a growing delay, so an absent broker is not hammered.
import type { Clock, EventOutbox, RelayEvents, RelayPass } from '../../domain/index.js';

/** How the relay tells what it does, for logs and metrics. */
export interface RelayReport {
  /** A pass ended: relayed, or refused by a transport. */
  pass(pass: RelayPass): void;
  /** The outbox (or a duty) failed: the storage is away, say. */
  fault(fault: unknown): void;
}

/** The relay's settings. */
export interface EventRelayOptions {
  readonly outbox: EventOutbox;
  readonly relay: RelayEvents;
  readonly clock: Clock;
  /** This process, as the lease names it: unique among the processes on the database. */
  readonly holder: string;
  /** How long a relayed event stays in the outbox. */
  readonly retentionMs: number;
  readonly report: RelayReport;
  /** Work only the lease holder does, after relaying, on every round (webhook deliveries due). */
  readonly duties?: readonly ((now: Date) => Promise<void>)[];
  readonly pollMs?: number;
  readonly leaseMs?: number;
  readonly pruneEveryMs?: number;
  readonly maxBackoffMs?: number;
}

/** A relay started by {@link startEventRelay}. */
export interface RunningEventRelay {
  /** Runs a round now (or right after the one under way). */
  wake(): void;
  /** Stops: no round starts after it, and the one under way is awaited. */
  stop(): Promise<void>;
}

/** The default timings: a poll every second, a lease of ten, pruning every minute, back-off up to 30 s. */
export const RELAY_TIMINGS = { pollMs: 1000, leaseMs: 10_000, pruneEveryMs: 60_000, maxBackoffMs: 30_000 } as const;

/** Starts the relay: it watches the outbox, then runs its first round at once. */
export async function startEventRelay(options: EventRelayOptions): Promise<RunningEventRelay> {
  const { outbox, relay, clock, holder, retentionMs, report, duties = [] } = options;
  const { pollMs, leaseMs, pruneEveryMs, maxBackoffMs } = { ...RELAY_TIMINGS, ...options };
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let round: Promise<void> | undefined;
  let again = false;
  let refusals = 0;
  let prunedAt = 0;

  // Every pass until none is left, or a transport refuses.
  const relayAll = async (): Promise<void> => {
    for (;;) {
      const pass = await relay();
      report.pass(pass);
      if (pass.outcome === 'refused') {
        refusals += 1;
        return;
      }
      refusals = 0;
      if (pass.events.length === 0) return;
    }
  };

  const oneRound = async (): Promise<void> => {
    const now = clock.now();
    if (!(await outbox.lease(holder, now, leaseMs))) return;
    await relayAll();
    for (const duty of duties) await duty(now);
    if (now.getTime() - prunedAt >= pruneEveryMs) {
      prunedAt = now.getTime();
      await outbox.prune(new Date(now.getTime() - retentionMs));
    }
  };

  const schedule = (): void => {
    if (stopped) return;
    const delay = refusals === 0 ? pollMs : Math.min(maxBackoffMs, pollMs * 2 ** refusals);
    timer = setTimeout(run, delay);
    // The relay alone never keeps a process alive.
    timer.unref();
  };

  function run(): void {
    if (stopped) return;
    if (round !== undefined) {
      again = true;
      return;
    }
    clearTimeout(timer);
    round = oneRound()
      .catch((fault: unknown) => report.fault(fault))
      .finally(() => {
        round = undefined;
        if (again && refusals === 0) {
          again = false;
          run();
        } else {
          again = false;
          schedule();
        }
      });
  }

  // A recorded event wakes the relay, unless a transport is refusing: then the back-off holds.
  const unwatch = await outbox.watch(() => {
    if (refusals === 0) run();
  });
  run();
  return {
    wake: run,
    stop: async () => {
      stopped = true;
      clearTimeout(timer);
      await round;
      await unwatch();
    },
  };
}
