import { Body, HttpCode, HttpStatus, Post, UseGuards } from '@nestjs/common';
import {
  GUARDS_METADATA,
  HTTP_CODE_METADATA,
  INTERCEPTORS_METADATA,
  PATH_METADATA,
  ROUTE_ARGS_METADATA,
} from '@nestjs/common/constants';
import { RouteParamtypes } from '@nestjs/common/enums/route-paramtypes.enum';
import { ClaimedKey, setClaimedKey } from './claimed-key';
import { Idempotent } from './idempotent';
import { IdempotencyStore } from './idempotency.store';

class AllowAll {
  canActivate = () => true;
}

class Routes {
  @Post('answer')
  @Idempotent()
  @HttpCode(HttpStatus.OK)
  @UseGuards(AllowAll)
  answer(@Body() body: { n: number }) {
    return { doubled: body.n * 2 };
  }
}

const route = Routes.prototype.answer as (...args: unknown[]) => unknown;

describe(Idempotent.name, () => {
  it('adds no Nest interceptor: Nest calls the handler of a route without one directly, without rxjs', () => {
    expect(Reflect.getMetadata(INTERCEPTORS_METADATA, route)).toBeUndefined();
    expect(Reflect.getMetadata(INTERCEPTORS_METADATA, Routes)).toBeUndefined();
  });

  it('keeps the name (the OpenAPI operationId) and the metadata of the decorators below it and above it', () => {
    expect(route.name).toBe('answer');
    expect(Reflect.getMetadata(HTTP_CODE_METADATA, route)).toBe(HttpStatus.OK);
    expect(Reflect.getMetadata(GUARDS_METADATA, route)).toEqual([AllowAll]);
    expect(Reflect.getMetadata(PATH_METADATA, route)).toBe('answer');
  });

  it('has Nest pass the request after the handler’s own parameters', () => {
    expect(Reflect.getMetadata(ROUTE_ARGS_METADATA, Routes, 'answer')).toEqual({
      [`${RouteParamtypes.BODY}:0`]: expect.objectContaining({ index: 0 }),
      [`${RouteParamtypes.REQUEST}:1`]: expect.objectContaining({ index: 1 }),
    });
  });

  it('without a claimed key, the handler answers as it is: no promise is added, nothing is stored', () => {
    expect(route.call(new Routes(), { n: 2 }, { method: 'POST' })).toStrictEqual({ doubled: 4 });
  });

  it('with a claimed key, the answer is stored with the route’s status before it goes out', async () => {
    const stored: unknown[] = [];
    const store = {
      complete: async (...args: unknown[]) => void stored.push(args),
    } as unknown as IdempotencyStore;
    const claim = { callerId: 'caller', key: 'key', claimId: 'claim' };
    const request = { method: 'POST' };
    setClaimedKey(request, new ClaimedKey(store, claim));
    const answer = route.call(new Routes(), { n: 3 }, request);
    expect(stored).toEqual([]);
    await expect(answer).resolves.toEqual({ doubled: 6 });
    expect(stored).toEqual([[claim, HttpStatus.OK, { doubled: 6 }]]);
  });
});
