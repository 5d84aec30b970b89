// SHA-256 of a text as bytes, on request paths: the key check digests the presented key on
// every request, and every list page with a next page digests its cursor's checksum.
// Shared by the auth adapter and the HTTP adapter.
import { hash } from 'node:crypto';

/** The SHA-256 of `text` (as UTF-8) in lower-case hex, with one call and no Hash object. */
export const sha256Hex = (text: string): string => hash('sha256', text, 'hex');

/**
 * The same digest as bytes. Through hex rather than hash()'s 'buffer' output: on Node 20 the
 * latter takes the slow path of hash()'s encoding check and allocates in C++, 1.0 µs a call
 * against 0.43 µs for hex and Buffer.from (docs/decisions/0015-sha-256-through-hex.md).
 */
export const sha256Bytes = (text: string): Buffer => Buffer.from(sha256Hex(text), 'hex');
