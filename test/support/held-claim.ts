// Makes concurrent requests with one Idempotency-Key meet for sure, in a service built in this
// process: the request that claims the key first waits, its claim granted, until a given
// number of claims were answered, so that every other claim finds it in progress.
import { setTimeout as delay } from 'node:timers/promises';
import type { Container } from 'inversify';
import type { IdempotencyStore } from '../../src/domain/index.js';
import { TOKENS } from '../../src/composition/tokens.js';

/**
 * When the claims never all come while the first request waits (requests sent one after
 * another), it goes on after this long: the test then fails on its answers, not its timeout.
 */
const WAIT_AT_MOST_MS = 5000;

/**
 * Call as `configure` of startTestServer, before anything is resolved. Only `claim` changes;
 * every other member is the adapter's own, bound to it, whatever the adapter adds to the port.
 */
export function holdFirstGrantedClaim(container: Container, untilClaims: number): void {
  let claimsAnswered = 0;
  let allClaimsAnswered!: () => void;
  const everyClaimAnswered = new Promise<void>((resolve) => (allClaimsAnswered = resolve));
  let oneHeld = false;

  const heldClaim =
    (store: IdempotencyStore): IdempotencyStore['claim'] =>
    async (request) => {
      const claim = await store.claim(request);
      claimsAnswered += 1;
      if (claimsAnswered === untilClaims) allClaimsAnswered();
      if (claim.kind === 'claimed' && !oneHeld) {
        oneHeld = true;
        await Promise.race([everyClaimAnswered, delay(WAIT_AT_MOST_MS, undefined, { ref: false })]);
      }
      return claim;
    };

  container.onActivation<IdempotencyStore>(TOKENS.IdempotencyStore, (_context, store) => {
    const claim = heldClaim(store);
    return new Proxy(store, {
      get: (target, property) => {
        if (property === 'claim') return claim;
        const value: unknown = Reflect.get(target, property, target);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
  });
}
