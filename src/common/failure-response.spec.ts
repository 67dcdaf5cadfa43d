import { ArgumentsHost, HttpException, Logger } from '@nestjs/common';
import { EXCEPTION_FILTERS_METADATA } from '@nestjs/common/constants';
import { ApiError } from './api-error';
import { FailureResponse, failureResponse, FailureResponseFilter } from './failure-response';

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
    expect([answer.getStatus(), answer.getResponse(), answer.cause]).toEqual([
      500,
      { error: 'Failed to do it' },
      failure,
    ]);
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

  it("is applied by the route's exception filter to whatever its guards, pipes and handler throw", () => {
    const [filter] = Reflect.getMetadata(EXCEPTION_FILTERS_METADATA, routes.plain) as FailureResponseFilter[];
    const response = { headersSent: false, status: jest.fn().mockReturnThis(), json: jest.fn() };
    const request = { path: '/api/admin/tenants' };
    const host = {
      switchToHttp: () => ({ getResponse: () => response, getRequest: () => request }),
    } as unknown as ArgumentsHost;
    filter.catch(new Error('boom'), host);
    expect(response.status).toHaveBeenCalledWith(500);
    expect(response.json).toHaveBeenCalledWith({ error: 'Failed to do it' });
  });
});
