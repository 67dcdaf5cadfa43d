import { setTimeout as delay } from 'node:timers/promises';
import { DataSource, In } from 'typeorm';
import { InvitationEmailOutboxEntity } from '../../src/database/entities';

/**
 * Retries `check` (an assertion or a probe that throws) until it passes, for things that happen
 * after the response, such as the outbox sending an e-mail. Rethrows its last failure after
 * `timeoutMs`, so a test fails with the assertion's own message.
 */
export async function eventually<T>(
  check: () => T | Promise<T>,
  { timeoutMs = 5_000, intervalMs = 20 } = {},
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await check();
    } catch (error) {
      if (Date.now() >= deadline) throw error;
      await delay(intervalMs);
    }
  }
}

/** Waits until no outbox row waits to be sent or is being sent. */
export async function outboxSettled(dataSource: DataSource, timeoutMs = 5_000): Promise<void> {
  const rows = dataSource.getRepository(InvitationEmailOutboxEntity);
  await eventually(async () => expect(await rows.countBy({ status: In(['pending', 'sending']) })).toBe(0), {
    timeoutMs,
  });
}
