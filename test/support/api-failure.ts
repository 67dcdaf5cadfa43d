import { HttpException } from '@nestjs/common';
import { failureResponse } from '../../src/common/failure-response';

/**
 * Awaits a call that must be refused, and gives the status and body it is answered with, for
 * `toEqual`. With `route` (a controller method), an error that is not an answer yet becomes the
 * route's @FailureResponse, as FailureResponseFilter does.
 */
export async function apiFailure(call: Promise<unknown>, route?: object): Promise<{ status: number; body: unknown }> {
  const error = await answerOf(call, route);
  expect(error).toBeInstanceOf(HttpException);
  return { status: (error as HttpException).getStatus(), body: (error as HttpException).getResponse() };
}

/** What the call rejects with, after the route's @FailureResponse when `route` is given. */
export function answerOf(call: Promise<unknown>, route?: object): Promise<unknown> {
  return call.then(
    () => undefined,
    (error: unknown) => (route ? failureResponse(route, error) : error),
  );
}
