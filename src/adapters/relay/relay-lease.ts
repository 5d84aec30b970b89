// The relay's lease as this process holds it. It is renewed once a third of it has passed, and
// sought at most once a poll: each is a write to the database, which a round per wake-up would
// otherwise make every time. Its times are the wall clock's, which every process on the
// database shares.
import type { EventOutbox } from '../../domain/index.js';

export class RelayLease {
  private heldUntil = 0;
  private triedAt = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly outbox: EventOutbox,
    private readonly holder: string,
    private readonly leaseMs: number,
    private readonly pollMs: number,
  ) {}

  /** Whether this process leads: it holds the lease, renewed or taken now if that is due. */
  async leading(): Promise<boolean> {
    const now = Date.now();
    if (now < this.heldUntil - (this.leaseMs * 2) / 3) return true;
    if (now >= this.heldUntil && now - this.triedAt < this.pollMs) return false;
    this.triedAt = now;
    this.heldUntil = (await this.outbox.lease(this.holder, new Date(now), this.leaseMs)) ? now + this.leaseMs : 0;
    return this.heldUntil > 0;
  }

  /** Whether the lease this process took last has not run out yet. */
  unexpired(): boolean {
    return Date.now() < this.heldUntil;
  }

  /** Gives the lease up if this process took it last, so that another relay takes over at once, not once it runs out. */
  async release(): Promise<void> {
    if (this.heldUntil > 0) await this.outbox.release(this.holder);
  }
}
