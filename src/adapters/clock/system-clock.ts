import type { Clock } from '../../domain/index.js';

/** The Clock of the real world. */
export const systemClock: Clock = { now: () => new Date() };
