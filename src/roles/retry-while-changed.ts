/** Attempts of a write that a parallel change of the same role made stale: read, decide and write again. */
export const ROLE_WRITE_ATTEMPTS = 5;

/**
 * Runs `attempt` (read, decide, write with a compare-and-set) until it answers; undefined means that
 * its compare-and-set found the role changed. After ROLE_WRITE_ATTEMPTS a failure of the request.
 */
export async function retryWhileChanged<T>(attempt: () => Promise<T | undefined>): Promise<T> {
  for (let tries = 0; tries < ROLE_WRITE_ATTEMPTS; tries++) {
    const answer = await attempt();
    if (answer !== undefined) return answer;
  }
  throw new Error(`A role changed on each of ${ROLE_WRITE_ATTEMPTS} attempts to write`);
}
