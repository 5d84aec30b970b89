// The reference behaviour of EventOutbox: what every other adapter must match (the contract
// suite in test/contract runs against all of them). MemoryPetRepository records into it.
import { randomUUID } from 'node:crypto';
import type { EventOutbox, OutboxBacklog, PetChange, PetEvent } from '../../domain/index.js';

interface Kept {
  readonly event: PetEvent;
  relayedAt: Date | undefined;
}

/** Events in memory, recorded by the MemoryPetRepository it is given to. Nothing is kept after exit. */
export class MemoryEventOutbox implements EventOutbox {
  private readonly kept: Kept[] = [];
  private lastSequence = 0;
  private readonly wakers = new Set<() => void>();
  private leaseHolder: string | undefined;
  private leaseUntil = 0;

  /** Records `change` as the next event; called by the repository in the change's own step. */
  record(change: PetChange): void {
    this.lastSequence += 1;
    this.kept.push({ event: { ...change, id: randomUUID(), sequence: this.lastSequence, time: new Date() }, relayedAt: undefined });
    // After the change's step: a woken relay reads what is now there.
    for (const wake of this.wakers) setImmediate(wake);
  }

  async pending(limit: number): Promise<readonly PetEvent[]> {
    const waiting: PetEvent[] = [];
    for (const kept of this.kept) {
      if (waiting.length === limit) break;
      if (kept.relayedAt === undefined) waiting.push(kept.event);
    }
    return waiting;
  }

  async markRelayed(sequences: readonly number[], at: Date): Promise<void> {
    const marked = new Set(sequences);
    for (const kept of this.kept) if (marked.has(kept.event.sequence) && kept.relayedAt === undefined) kept.relayedAt = at;
  }

  async prune(before: Date): Promise<number> {
    const keep = this.kept.filter((kept) => kept.relayedAt === undefined || kept.relayedAt >= before);
    const pruned = this.kept.length - keep.length;
    this.kept.splice(0, this.kept.length, ...keep);
    return pruned;
  }

  async backlog(): Promise<OutboxBacklog> {
    const waiting = this.kept.filter((kept) => kept.relayedAt === undefined);
    return { count: waiting.length, oldest: waiting[0]?.event.time };
  }

  async watch(wake: () => void): Promise<() => Promise<void>> {
    this.wakers.add(wake);
    return async () => void this.wakers.delete(wake);
  }

  async lease(holder: string, now: Date, ttlMs: number): Promise<boolean> {
    if (this.leaseHolder !== undefined && this.leaseHolder !== holder && this.leaseUntil > now.getTime()) return false;
    this.leaseHolder = holder;
    this.leaseUntil = now.getTime() + ttlMs;
    return true;
  }

  async release(holder: string): Promise<void> {
    if (this.leaseHolder !== holder) return;
    this.leaseHolder = undefined;
    this.leaseUntil = 0;
  }
}
