// The relay as a process runs it: passes of relayEvents whenever the outbox says an event was
// recorded, and every poll interval besides, only while this process holds the relay's lease
// (one active relay per database, whatever the number of workers or instances). A pass that a
// transport refused is tried again with a growing delay, so an absent broker is not hammered;
// the rounds go on at the poll's pace meanwhile, for the lease and the duties.
import type { Clock, EventOutbox, RelayEvents, RelayPass } from '../../domain/index.js';
import { withinTimeLimit } from '../shared/time-limit.js';
import { IN_PROCESS_SUBSCRIBER_TIMEOUT_MS } from './in-process-subscribers.js';

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
  /**
   * The time of marks, pruning and duties. Not of the lease, which keeps to the wall clock: the
   * processes that share it must share its time, whatever clock each is given.
   */
  readonly clock: Clock;
  /** This process, as the lease names it: unique among the processes on the database. */
  readonly holder: string;
  /** How long a relayed event stays in the outbox. */
  readonly retentionMs: number;
  readonly report: RelayReport;
  /**
   * Work only the lease holder does, after relaying, at the poll's pace (starting the webhook
   * deliveries due). The round awaits it, so it starts work and does not wait for its end.
   */
  readonly duties?: readonly ((now: Date) => Promise<void>)[];
  /** More to prune with the outbox, at its pace: what is older than the retention (finished webhook deliveries). */
  readonly prunes?: readonly ((before: Date) => Promise<unknown>)[];
  readonly pollMs?: number;
  readonly leaseMs?: number;
  readonly pruneEveryMs?: number;
  readonly maxBackoffMs?: number;
  readonly wakeDelayMs?: number;
  /** How long `stop()` waits for the round under way and its last pass, together. */
  readonly stopWaitMs?: number;
}

/** A relay started by {@link startEventRelay}. */
export interface RunningEventRelay {
  /** Runs a round now (or right after the one under way); the process stays alive until it has. */
  wake(): void;
  /**
   * Stops: no round starts after it; the one under way is awaited, then, while this process
   * holds the lease and no transport is refusing, one last pass hands on what waits (a refusal
   * then is not tried again: the events wait in the outbox for the next relay); the lease is
   * released. It waits for that work at most `stopWaitMs`, then leaves it to finish on its own.
   */
  stop(): Promise<void>;
}

/**
 * The default timings: a poll every second, a lease of ten, pruning every minute, back-off up
 * to 30 s, and a wake-up answered 20 ms later, so that the events of a burst of changes share
 * one round (and its writes to the outbox) rather than each paying its own; a stop waits for
 * the relay's work as long as a subscriber in the process may take with an event.
 */
export const RELAY_TIMINGS = {
  pollMs: 1000,
  leaseMs: 10_000,
  pruneEveryMs: 60_000,
  maxBackoffMs: 30_000,
  wakeDelayMs: 20,
  stopWaitMs: IN_PROCESS_SUBSCRIBER_TIMEOUT_MS,
} as const;

/** Starts the relay: it watches the outbox, then runs its first round at once. */
export async function startEventRelay(options: EventRelayOptions): Promise<RunningEventRelay> {
  const { outbox, relay, clock, holder, retentionMs, report, duties = [], prunes = [] } = options;
  const { pollMs, leaseMs, pruneEveryMs, maxBackoffMs, wakeDelayMs, stopWaitMs } = { ...RELAY_TIMINGS, ...options };
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let timerAt = Number.POSITIVE_INFINITY;
  let round: Promise<void> | undefined;
  let again = false;
  let refusals = 0;
  // After a refusal, no pass before this time (Date.now()): the back-off spares the transport, not the duties.
  let relayAfter = 0;
  let prunedAt = 0;
  let dutiesAt = Number.NEGATIVE_INFINITY;
  let heldUntil = 0;
  let triedAt = Number.NEGATIVE_INFINITY;

  // The lease is renewed once a third of it has passed, and sought at most once a poll: each
  // is a write to the database, which a round per wake-up would otherwise make every time. Its
  // times are the wall clock's, which every process on the database shares.
  const leading = async (): Promise<boolean> => {
    const now = Date.now();
    if (now < heldUntil - (leaseMs * 2) / 3) return true;
    if (now >= heldUntil && now - triedAt < pollMs) return false;
    triedAt = now;
    heldUntil = (await outbox.lease(holder, new Date(now), leaseMs)) ? now + leaseMs : 0;
    return heldUntil > 0;
  };

  // Passes while each finds a full batch waiting, until a transport refuses. A pass that found
  // less has emptied the outbox: what is recorded after it wakes the next round, which the
  // wake-up delay lets gather a burst's events into one pass (and one mark) instead of many.
  const relayAll = async (): Promise<void> => {
    for (;;) {
      const pass = await relay();
      report.pass(pass);
      if (pass.outcome === 'refused') {
        refusals += 1;
        relayAfter = Date.now() + Math.min(maxBackoffMs, pollMs * 2 ** refusals);
        return;
      }
      refusals = 0;
      if (!pass.full) return;
    }
  };

  const oneRound = async (): Promise<void> => {
    const now = clock.now();
    if (!(await leading())) return;
    if (Date.now() >= relayAfter) await relayAll();
    // Duties (webhook deliveries due) and pruning keep to the poll's pace, not the wake-ups',
    // and not the back-off's: a broker that refuses holds up no webhook delivery.
    if (now.getTime() - dutiesAt >= pollMs) {
      dutiesAt = now.getTime();
      for (const duty of duties) await duty(now);
    }
    if (now.getTime() - prunedAt >= pruneEveryMs) {
      prunedAt = now.getTime();
      const before = new Date(now.getTime() - retentionMs);
      await outbox.prune(before);
      for (const prune of prunes) await prune(before);
    }
  };

  // A round in `delayMs`, unless one is due sooner already. A round for a recorded event keeps
  // the process alive until it has run, so that a script awaiting the event hears it; the poll
  // and the back-off do not: an idle relay alone never keeps a process alive.
  const scheduleIn = (delayMs: number, forRecorded = false): void => {
    if (stopped) return;
    const at = Date.now() + delayMs;
    const keepsAlive = forRecorded || (timer?.hasRef() ?? false);
    if (timer !== undefined && timerAt <= at) {
      if (keepsAlive) timer.ref();
      return;
    }
    clearTimeout(timer);
    timerAt = at;
    timer = setTimeout(() => {
      timer = undefined;
      timerAt = Number.POSITIVE_INFINITY;
      run();
    }, delayMs);
    if (!keepsAlive) timer.unref();
  };

  function run(): void {
    if (stopped) return;
    if (round !== undefined) {
      again = true;
      return;
    }
    round = oneRound()
      .catch((fault: unknown) => report.fault(fault))
      .finally(() => {
        round = undefined;
        const woken = again && refusals === 0;
        again = false;
        // While backing off, the next round comes at the retry if that is sooner than the poll;
        // a retry already due (not tried: the lease was elsewhere) waits for the poll, never 0 ms.
        const untilRetry = relayAfter - Date.now();
        if (woken) scheduleIn(wakeDelayMs, true);
        else scheduleIn(refusals === 0 || untilRetry <= 0 ? pollMs : Math.min(pollMs, untilRetry));
      });
  }

  // A recorded event wakes the relay, unless a transport is refusing: then the back-off holds.
  const unwatch = await outbox.watch(() => {
    if (refusals > 0) return;
    if (round !== undefined) again = true;
    else scheduleIn(wakeDelayMs, true);
  });

  // What was recorded before the stop is handed on now rather than left to the next relay (in
  // memory, lost with the process), if this process leads and the transports were taking
  // events: after a refusal, the next relay's back-off is the place to try again.
  const lastPass = async (): Promise<void> => {
    if (refusals > 0 || Date.now() >= heldUntil || !(await leading())) return;
    await relayAll();
  };

  run();
  return {
    wake: () => scheduleIn(0, true),
    stop: async () => {
      stopped = true;
      clearTimeout(timer);
      let waitedOut = false;
      const finishing = (async () => {
        await round;
        if (!waitedOut) await lastPass().catch((fault: unknown) => report.fault(fault));
      })();
      // A transport that never answers must not hold a shutdown: its pass goes on unawaited,
      // and no last pass follows it once the storage may be closed.
      await withinTimeLimit(finishing, stopWaitMs, "the stopping relay's round").catch((fault: unknown) => {
        waitedOut = true;
        report.fault(fault);
      });
      await unwatch();
      // Another process's relay (or this database's next store) takes over at once, not once the lease runs out.
      if (heldUntil > 0) await outbox.release(holder).catch((fault: unknown) => report.fault(fault));
    },
  };
}
