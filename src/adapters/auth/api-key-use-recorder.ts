// The last use of stored keys, written at most once a minute per key by this process, so that
// `keys list` can tell which keys are in use without a write on every request.
import type { Logger } from 'pino';
import type { ApiKeyId, ApiKeyStore } from '../../domain/index.js';
import { describeFault } from '../../domain/fault-description.js';

/** How long after a key's last write of its use this process writes it again: a minute. */
export const USE_WRITE_INTERVAL_MS = 60_000;

// Past this many keys remembered, those written over a minute ago are forgotten: they would be written again anyway.
const PRUNE_ABOVE = 10_000;

/**
 * Records the uses of stored keys in `store`, throttled: the first use of a key, then the
 * first one at least a minute after the last write, per process. The write is started, not
 * awaited, so the request neither waits for it nor fails with it; a failed write is logged on
 * `logger` (without the key) and made again at a use a minute later.
 */
export class ApiKeyUseRecorder {
  /** Key id → when this process last started a write of its use (ms). */
  private readonly written = new Map<number, number>();

  constructor(
    private readonly store: Pick<ApiKeyStore, 'recordUse'>,
    private readonly logger?: Pick<Logger, 'warn'>,
  ) {}

  /** Notes that the key `id` (of the caller `callerId`) was accepted at `at`; writes it when due. */
  used(id: ApiKeyId, callerId: string, at: Date): void {
    const now = at.getTime();
    const last = this.written.get(id);
    if (last !== undefined && now - last < USE_WRITE_INTERVAL_MS) return;
    if (last === undefined && this.written.size >= PRUNE_ABOVE) this.forgetBefore(now - USE_WRITE_INTERVAL_MS);
    this.written.set(id, now);
    Promise.resolve()
      .then(() => this.store.recordUse(id, at))
      .catch((err: unknown) => {
        this.logger?.warn({ caller: callerId, fault: describeFault(err) }, 'could not record the last use of a stored API key');
      });
  }

  private forgetBefore(time: number): void {
    for (const [id, last] of this.written) if (last <= time) this.written.delete(id);
  }
}
