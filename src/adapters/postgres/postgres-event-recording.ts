// How the changes of a PostgreSQL repository record their events: not at all, without a trace
// context, or (tracing on) with the trace context of each change's caller, which the change's
// statement takes as parameters and writes with its events. Untraced, the statements are those
// of before tracing, under their own prepared names, and take no more parameters. After a
// change that recorded events commits, the relays are told.
import type { Pool } from 'pg';
import type { TraceContext } from '../../domain/index.js';
import { columnsOfTraceContext, type CurrentTraceContext } from '../shared/trace-context.js';
import { type EventsNotice, eventsNoticeOf } from './events-notice.js';

/** The SQL of a change's trace context: its `traceparent` and `tracestate` (text, NULL for none). */
export interface TraceSql {
  readonly traceparent: string;
  readonly tracestate: string;
}

/** The trace context of a change as the parameters $`first` and the next. */
export const traceParameters = (first: number): TraceSql => ({ traceparent: `$${first}::text`, tracestate: `$${first + 1}::text` });

/** The columns of an event that keep its trace context, and their values: none without `trace`. */
export const traceOfEvent = (trace: TraceSql | undefined) =>
  trace === undefined
    ? { columns: '', values: '' }
    : { columns: ', traceparent, tracestate', values: `, ${trace.traceparent}, ${trace.tracestate}` };

/** A named prepared statement: the name differs with the text, as a connection keeps each one prepared. */
export interface NamedStatement {
  readonly name: string;
  readonly text: string;
}

/** What a repository's changes record: `none`, their events (`recorded`), or their events with their callers' trace context (`traced`). */
export type EventRecordingKind = 'none' | 'recorded' | 'traced';

/** How a repository made with `recordEvents` and, when tracing is on, `currentTrace` records its events. */
export class EventRecording {
  readonly kind: EventRecordingKind;
  /** The trace context under way: asked for only when the events keep it. */
  private readonly currentTrace: CurrentTraceContext | undefined;

  /** Tells the relays that events were recorded: none when none are. */
  private readonly notice: EventsNotice | undefined;

  constructor(pool: Pool, recordEvents: boolean, currentTrace: CurrentTraceContext | undefined) {
    this.notice = recordEvents ? eventsNoticeOf(pool) : undefined;
    this.currentTrace = recordEvents ? currentTrace : undefined;
    this.kind = !recordEvents ? 'none' : this.currentTrace === undefined ? 'recorded' : 'traced';
  }

  /** Called after the commit of a change that recorded events: wakes the relays (events-notice.ts). */
  committed(): void {
    this.notice?.recorded();
  }

  /** The trace context under way, which a change asked for now keeps: none unless `traced`. */
  trace(): TraceContext | undefined {
    return this.currentTrace?.();
  }

  /** The parameters of the trace context under way, after a change's own: none unless `traced`. */
  traceColumns(): [] | [string | null, string | null] {
    return this.currentTrace === undefined ? [] : columnsOfTraceContext(this.currentTrace());
  }

  /**
   * The parameters of a batch's trace contexts, one per write taken when it was asked for (the
   * batch runs in another's turn), as two arrays after the batch's own: none unless `traced`.
   */
  traceArrays(traces: readonly (TraceContext | undefined)[]): [] | [(string | null)[], (string | null)[]] {
    if (this.kind !== 'traced') return [];
    return [traces.map((trace) => trace?.traceparent ?? null), traces.map((trace) => trace?.tracestate ?? null)];
  }

  /** The statement `text`, named after `name` and what it records. */
  named(name: string, text: string): NamedStatement {
    return { name: this.kind === 'none' ? name : `${name}_${this.kind}`, text };
  }
}
