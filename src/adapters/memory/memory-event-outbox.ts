// The reference behaviour of EventOutbox: what every other adapter must match (the contract
// suite in test/contract runs against all of them). MemoryPetRepository records into it.
import { randomUUID } from 'node:crypto';
import type { EventOutbox, OutboxBacklog, OutboxBatch, PetChange, PetEvent } from '../../domain/index.js';
import type { CurrentTraceContext } from '../shared/trace-context.js';

/** A transport's position at a time: the last sequence it had taken then. */
interface Mark {
  readonly through: number;
  readonly at: Date;
}

/** Events in memory, recorded by the MemoryPetRepository it is given to. Nothing is kept after exit. */
export class MemoryEventOutbox implements EventOutbox {
  // In sequence order: one change at a time, so the outbox order is the order of the changes.
  private readonly kept: PetEvent[] = [];
  /** Each transport's marks, oldest first: the last is its position. */
  private readonly marks = new Map<string, Mark[]>();
  private lastSequence = 0;
  private readonly wakers = new Set<() => void>();
  private leaseHolder: string | undefined;
  private leaseUntil = 0;

  /** @param currentTrace the trace context each change records with its event; none when absent (tracing off). */
  constructor(private readonly currentTrace?: CurrentTraceContext) {}

  /** Records `change` as the next event, with the trace context of the work under way; called by the repository in the change's own step. */
  record(change: PetChange): void {
    this.lastSequence += 1;
    const traceContext = this.currentTrace?.();
    const event: PetEvent = { ...change, id: randomUUID(), sequence: this.lastSequence, time: new Date() };
    this.kept.push(traceContext === undefined ? event : { ...event, traceContext });
    // After the change's step: a woken relay reads what is now there.
    for (const wake of this.wakers) setImmediate(wake);
  }

  async read(transport: string, limit: number): Promise<OutboxBatch> {
    const position = this.position(transport);
    const events = this.kept.filter((event) => event.sequence > position).slice(0, limit);
    return { events, through: events.at(-1)?.sequence ?? position };
  }

  async markTaken(transport: string, through: number, at: Date): Promise<void> {
    if (through <= this.position(transport)) return;
    const marks = this.marks.get(transport) ?? [];
    marks.push({ through, at });
    this.marks.set(transport, marks);
  }

  async newestPosition(): Promise<number> {
    return this.lastSequence;
  }

  async prune(before: Date, transports: readonly string[]): Promise<number> {
    const taken = transports.map((transport) => this.marks.get(transport)?.findLast((mark) => mark.at < before)?.through ?? 0);
    const through = transports.length === 0 ? 0 : Math.min(...taken);
    const pruned = this.kept.findIndex((event) => event.sequence > through);
    const count = pruned === -1 ? this.kept.length : pruned;
    this.kept.splice(0, count);
    // Every transport's newest mark stays, whatever its age: it is its position.
    for (const marks of this.marks.values()) marks.splice(0, marks.slice(0, -1).filter((mark) => mark.at < before).length);
    return count;
  }

  async backlog(transport: string): Promise<OutboxBacklog> {
    const position = this.position(transport);
    const waiting = this.kept.filter((event) => event.sequence > position);
    return { count: waiting.length, oldest: waiting[0]?.time };
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

  // A transport's last mark; one with none starts at the start.
  private position(transport: string): number {
    return this.marks.get(transport)?.at(-1)?.through ?? 0;
  }
}
