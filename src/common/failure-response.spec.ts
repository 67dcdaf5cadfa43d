import { ExecutionContext, HttpException, Logger } from '@nestjs/common';
import { lastValueFrom, throwError } from 'rxjs';
import { ApiError } from './api-error';
import { FailureResponse, failureResponse, FailureResponseInterceptor } from './failure-response';

class Routes {
  @FailureResponse({ error: 'Failed to do it' })
  plain() {}

  @FailureResponse({ error: 'Failed to read it' }, { details: true })
  withDetails() {}

  undeclared() {}
}
const routes = Routes.prototype;

describe(FailureResponse.name, () => {
  let logged: jest.SpyInstance;
  beforeEach(() => {
    logged = jest.spyOn(Logger.prototype, 'error').mockImplementation();
  });
  afterEach(() => jest.restoreAllMocks());

  it("turns an unexpected error into the route's 500 body, with the error as its cause, and logs it", () => {
    const failure = new Error('connection lost');
    const answer = failureResponse(routes.plain, failure) as HttpException;
    expect([answer.getStatus(), answer.getResponse(), answer.cause]).toEqual([500, { error: 'Failed to do it' }, failure]);
    expect(logged).toHaveBeenCalledWith('Failed to do it: connection lost');
  });

  it('adds the failure message as details when the route asks for them', () => {
    const answer = failureResponse(routes.withDetails, 'not an Error') as HttpException;
    expect(answer.getResponse()).toEqual({ error: 'Failed to read it', details: 'not an Error' });
  });

  it('passes an answer the service chose through unchanged, unlogged', () => {
    const answer = new ApiError(404, 'User not found');
    expect(failureResponse(routes.withDetails, answer)).toBe(answer);
    expect(logged).not.toHaveBeenCalled();
  });

  it('leaves the errors of a route without one to the exception filter', () => {
    const failure = new Error('boom');
    expect(failureResponse(routes.undeclared, failure)).toBe(failure);
  });

  it('is applied by the interceptor to whatever the handler throws', async () => {
    const context = { getHandler: () => routes.plain } as unknown as ExecutionContext;
    const answered = lastValueFrom(
      new FailureResponseInterceptor().intercept(context, { handle: () => throwError(() => new Error('boom')) }),
    );
    await expect(answered).rejects.toMatchObject({ status: 500, response: { error: 'Failed to do it' } });
  });
});
