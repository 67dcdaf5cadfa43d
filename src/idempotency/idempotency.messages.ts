/** Idempotency-Key: the request header, the replay's header, and the refusals. */
export const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key';
export const IDEMPOTENT_REPLAYED_HEADER = 'Idempotent-Replayed';

export const IDEMPOTENCY_ERRORS = {
  invalidKey: 'Invalid Idempotency-Key. Must be 1 to 255 printable ASCII characters',
  reusedKey: 'Idempotency-Key reused with a different request',
  inProgress: 'A request with this Idempotency-Key is still in progress',
} as const;
