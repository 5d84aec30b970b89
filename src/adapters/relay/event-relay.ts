// The relay as a process runs it: rounds whenever the outbox says an event was recorded, and
// every poll interval besides, only while this process holds the relay's lease (one active
// relay per database, whatever the number of workers or instances). A round starts each
// transport's passes (relayEvents) beside the others', and waits for none: a transport that
// refuses is tried again with a growing delay, so an absent broker is not hammered, while the
// others go on; the rounds go on at the poll's pace meanwhile, for the lease and the duties.
import type { Clock, EventOutbox, RelayEvents, RelayPass } from '../../domain/index.js';
import { RelayLane } from './relay-lane.js';
import { withinTimeLimit } from '../shared/time-limit.js';
import { IN_PROCESS_SUBSCRIBER_TIMEOUT_MS } from './in-process-subscribers.js';
import { RelayLease } from './relay-lease.js';
import { RoundTimer } from './round-timer.js';

/** How the relay tells what it does, for logs and metrics. */
export interface RelayReport {
  /** A pass of a transport ended: relayed, or refused by it. */
  pass(pass: RelayPass): void;
  /** The outbox (or a duty) failed: the storage is away, say. */
  fault(fault: unknown): void;
}

/** The relay's settings. */
export interface EventRelayOptions {
  readonly outbox: EventOutbox;
  /** Each transport's pass, by its name: each transport reads from its own position, at its own pace. */
  readonly relays: readonly { readonly transport: string; readonly relay: RelayEvents }[];
  /**
   * The time of marks, pruning and duties. Not of the lease, which keeps to the wall clock: the
   * processes that share it must share its time, whatever clock each is given.
   */
  readonly clock: Clock;
  /** This process, as the lease names it: unique among the processes on the database. */
  readonly holder: string;
  /** How long an event stays in the outbox once every transport has taken it. */
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
  /** The transport of this name takes events again (its broker reconnected), or wants them now (its first subscriber came): its back-off, or its poll pace, ends now. */
  retry(transport: string): void;
  /**
   * Stops: no round starts after it; the one under way and the passes under way are awaited,
   * then, while this process holds the lease, each transport that is not refusing gets last
   * passes over what waits for it (a refusal then is not tried again: the events wait in the
   * outbox for the next relay); the lease is
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

type RelayTimings = { readonly [K in keyof typeof RELAY_TIMINGS]: number };

/** Starts the relay: it watches the outbox, then runs its first round at once. */
export async function startEventRelay(options: EventRelayOptions): Promise<RunningEventRelay> {
  const loop = new RelayLoop(options);
  await loop.watch();
  loop.run();
  return { wake: () => loop.wake(), retry: (transport) => loop.retry(transport), stop: () => loop.stop() };
}

/** The relay's state between rounds, and the rounds. */
class RelayLoop {
  private readonly report: RelayReport;
  private readonly timings: RelayTimings;
  private readonly lease: RelayLease;
  private readonly lanes: readonly RelayLane[];
  private readonly transports: readonly string[];
  private readonly timer = new RoundTimer(() => this.run());
  private unwatch: () => Promise<void> = () => Promise.resolve();
  private stopped = false;
  private round: Promise<void> | undefined;
  private again = false;
  private prunedAt = 0;
  private dutiesAt = Number.NEGATIVE_INFINITY;

  constructor(private readonly options: EventRelayOptions) {
    const { pollMs, leaseMs, pruneEveryMs, maxBackoffMs, wakeDelayMs, stopWaitMs } = { ...RELAY_TIMINGS, ...options };
    this.timings = { pollMs, leaseMs, pruneEveryMs, maxBackoffMs, wakeDelayMs, stopWaitMs };
    this.report = options.report;
    this.lease = new RelayLease(options.outbox, options.holder, leaseMs, pollMs);
    this.transports = options.relays.map(({ transport }) => transport);
    this.lanes = options.relays.map(({ relay }) => new RelayLane(relay, this.report, this.timings, () => this.lease.unexpired()));
  }

  // A recorded event wakes the relay; a transport that is refusing keeps to its back-off.
  async watch(): Promise<void> {
    this.unwatch = await this.options.outbox.watch(() => {
      if (this.round !== undefined) this.again = true;
      else this.scheduleIn(this.timings.wakeDelayMs, true);
    });
  }

  wake(): void {
    this.scheduleIn(0, true);
  }

  retry(transport: string): void {
    if (!this.stopped) this.lanes[this.transports.indexOf(transport)]?.retryNow();
  }

  run(): void {
    if (this.stopped) return;
    if (this.round !== undefined) {
      this.again = true;
      return;
    }
    this.round = this.oneRound()
      .catch((fault: unknown) => this.report.fault(fault))
      .finally(() => this.roundEnded());
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.timer.cancel();
    let waitedOut = false;
    const finishing = (async () => {
      await this.round;
      await this.idle();
      if (!waitedOut) await this.lastPasses().catch((fault: unknown) => this.report.fault(fault));
    })();
    // A transport that never answers must not hold a shutdown: its pass goes on unawaited,
    // and no last pass follows it once the storage may be closed.
    await withinTimeLimit(finishing, this.timings.stopWaitMs, "the stopping relay's round").catch((fault: unknown) => {
      waitedOut = true;
      this.report.fault(fault);
    });
    await this.unwatch();
    await this.lease.release().catch((fault: unknown) => this.report.fault(fault));
  }

  /** Resolves once no transport's passes are under way. */
  idle(): Promise<void> {
    return Promise.all(this.lanes.map((lane) => lane.idle())).then(() => undefined);
  }

  private scheduleIn(delayMs: number, forRecorded = false): void {
    if (!this.stopped) this.timer.schedule(delayMs, forRecorded);
  }

  private roundEnded(): void {
    this.round = undefined;
    const woken = this.again;
    this.again = false;
    const { pollMs, wakeDelayMs } = this.timings;
    // While a transport backs off, the next round comes at its retry if that is sooner than the poll.
    const retries = this.lanes.map((lane) => lane.untilRetry()).filter((ms) => ms > 0);
    if (woken) this.scheduleIn(wakeDelayMs, true);
    else this.scheduleIn(Math.min(pollMs, ...retries));
  }

  private async oneRound(): Promise<void> {
    const now = this.options.clock.now();
    if (!(await this.lease.leading())) return;
    // Each transport's passes start beside the others', and the round waits for none of them.
    for (const lane of this.lanes) lane.kick();
    // Duties (webhook deliveries due) and pruning keep to the poll's pace, not the wake-ups'.
    if (now.getTime() - this.dutiesAt >= this.timings.pollMs) {
      this.dutiesAt = now.getTime();
      for (const duty of this.options.duties ?? []) await duty(now);
    }
    if (now.getTime() - this.prunedAt >= this.timings.pruneEveryMs) {
      this.prunedAt = now.getTime();
      const before = new Date(now.getTime() - this.options.retentionMs);
      await this.options.outbox.prune(before, this.transports);
      for (const prune of this.options.prunes ?? []) await prune(before);
    }
  }

  // What was recorded before the stop is handed on now rather than left to the next relay (in
  // memory, lost with the process), if this process leads: each transport that was taking
  // events gets its last passes; after a refusal, the next relay's back-off is the place to try again.
  private async lastPasses(): Promise<void> {
    if (!this.lease.unexpired() || !(await this.lease.leading())) return;
    await Promise.all(this.lanes.map((lane) => lane.lastPasses().catch((fault: unknown) => this.report.fault(fault))));
  }
}
