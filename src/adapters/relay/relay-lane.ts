// One transport's passes, at its own pace: started by the relay's rounds, they go on while each
// finds a full batch, and back off after a refusal (2, 4, … up to 30 s) without holding the
// other transports' passes, which run beside them. A transport that wanted none is passed at
// the poll's pace, not at every wake-up: nothing waits on its passes but the outbox's pruning.
import type { RelayEvents, RelayPass } from '../../domain/index.js';

/** What a lane tells of its passes. */
export interface LaneReport {
  pass(pass: RelayPass): void;
  fault(fault: unknown): void;
}

/** How a lane paces itself. */
export interface LaneTimings {
  readonly pollMs: number;
  readonly maxBackoffMs: number;
}

/** The passes of one transport. */
export class RelayLane {
  private running: Promise<void> | undefined;
  private again = false;
  private refusals = 0;
  // After a refusal, or a pass of a transport that wanted none, no pass before this time (Date.now()).
  private relayAfter = 0;
  // The transport said it was back while a pass was under way: passes start again after it.
  private retryAfterRun = false;

  /**
   * @param relay one pass of the transport
   * @param mayRun whether this process may relay now (it holds the lease): checked before each pass
   */
  constructor(
    private readonly relay: RelayEvents,
    private readonly report: LaneReport,
    private readonly timings: LaneTimings,
    private readonly mayRun: () => boolean,
  ) {}

  /**
   * Starts passes, unless the back-off holds, or passes are under way: those then run once more
   * when they end, for what was recorded meanwhile. Does not wait for them.
   */
  kick(): void {
    if (this.running !== undefined) {
      this.again = true;
      return;
    }
    if (Date.now() < this.relayAfter) return;
    this.again = false;
    this.running = this.passes()
      .catch((fault: unknown) => this.report.fault(fault))
      .finally(() => {
        this.running = undefined;
        if (this.retryAfterRun) this.retryNow();
        else if (this.again && this.refusals === 0) this.kick();
      });
  }

  /**
   * The transport says it takes events again (its broker reconnected), or wants them now (its
   * first subscriber came): the back-off, or the poll's pace, ends, and passes start now, or
   * when those under way end (one of them may have met the outage's end).
   */
  retryNow(): void {
    this.retryAfterRun = this.running !== undefined;
    this.relayAfter = 0;
    this.kick();
  }

  /** How long until the back-off lets a pass run again: 0 when it does now. */
  untilRetry(): number {
    return Math.max(0, this.relayAfter - Date.now());
  }

  /** Resolves once the passes under way (and those they start again) have ended. */
  async idle(): Promise<void> {
    while (this.running !== undefined) await this.running;
  }

  /** A stop's last passes: what waits is handed on now, unless the transport was refusing (the next relay's back-off tries it again). */
  async lastPasses(): Promise<void> {
    if (this.refusals === 0) await this.passes();
  }

  // Passes while each finds a full batch waiting, until the transport refuses. A pass that found
  // less has emptied the transport's backlog: what is recorded after it wakes the next round.
  private async passes(): Promise<void> {
    for (;;) {
      if (!this.mayRun()) return;
      const pass = await this.relay();
      this.report.pass(pass);
      if (pass.outcome === 'refused') {
        this.refusals += 1;
        this.relayAfter = Date.now() + Math.min(this.timings.maxBackoffMs, this.timings.pollMs * 2 ** this.refusals);
        return;
      }
      this.refusals = 0;
      if (pass.wantedNone === true) this.relayAfter = Date.now() + this.timings.pollMs;
      if (!pass.full) return;
    }
  }
}
