// The tokens verified lately, so that a client sending the same token on every request has its
// signature checked once, not on every request (docs/decisions/0025-jwt-access-tokens.md). An
// entry is kept by the SHA-256 of the token, never the token, and lives until the token's
// `exp` or its lifetime, whichever comes first. The oldest entry goes when the map is full.
import { sha256Hex } from '../shared/sha256.js';

/** A bounded map from tokens to what their verification found, each entry with its end. */
export class VerifiedTokens<T> {
  private readonly entries = new Map<string, { readonly value: T; readonly until: number }>();

  /** @param limit the most entries kept; @param lifetimeMs how long an entry lives at most */
  constructor(
    private readonly limit: number,
    private readonly lifetimeMs: number,
  ) {}

  /** What was kept for `token`, unless its entry has ended by `now` (ms since the epoch). */
  get(token: string, now: number): T | undefined {
    const digest = sha256Hex(token);
    const entry = this.entries.get(digest);
    if (entry === undefined) return undefined;
    if (now < entry.until) return entry.value;
    this.entries.delete(digest);
    return undefined;
  }

  /** Keeps `value` for `token` until `expiresAt` (ms since the epoch) or the lifetime from `now`, whichever comes first. */
  set(token: string, value: T, now: number, expiresAt: number): void {
    if (this.limit <= 0) return;
    const digest = sha256Hex(token);
    this.entries.delete(digest);
    // A Map iterates in insertion order: its first key is the entry kept longest ago.
    while (this.entries.size >= this.limit) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(digest, { value, until: Math.min(expiresAt, now + this.lifetimeMs) });
  }

  /** How many entries are kept (ended ones included until they are asked for or pushed out). */
  get size(): number {
    return this.entries.size;
  }
}
