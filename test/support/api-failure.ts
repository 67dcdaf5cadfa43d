import { ApiError } from '../../src/common/api-error';

/** Awaits a promise that must reject with an ApiError; gives its status and body for `toEqual`. */
export async function apiFailure(promise: Promise<unknown>): Promise<{ status: number; body: unknown }> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ApiError);
  return { status: (error as ApiError).getStatus(), body: (error as ApiError).getResponse() };
}
