import { HttpStatus, Req } from '@nestjs/common';
import { HTTP_CODE_METADATA, PARAMTYPES_METADATA } from '@nestjs/common/constants';
import type { Request } from 'express';
import { claimedKeyOf } from './claimed-key';

type Handler = (...args: unknown[]) => unknown;

/**
 * Runs a route's handler through the key that IdempotencyGuard claimed (ClaimedKey stores its
 * answer); without a key, the handler is called as it is. A wrapper of the method, not an
 * interceptor: Nest calls the handler of a route without interceptors directly, where one
 * interceptor would put every request through an rxjs pipeline.
 *
 * Nest passes the request as one more argument after the handler's own (the handler ignores it),
 * and reads a route's metadata (@HttpCode, guards, OpenAPI) from the function it calls, the
 * wrapper: it takes the handler's metadata, and its name (the OpenAPI operationId).
 */
export const IdempotentHandler =
  (): MethodDecorator =>
  (target: object, key: string | symbol, descriptor: PropertyDescriptor): void => {
    const handler = descriptor.value as Handler;
    const requestIndex = (Reflect.getMetadata(PARAMTYPES_METADATA, target, key) as unknown[]).length;
    Req()(target, key, requestIndex);
    const wrapper = function (this: unknown, ...args: unknown[]): unknown {
      const request = args[requestIndex] as Request;
      const claimed = claimedKeyOf(request);
      if (!claimed) return handler.apply(this, args);
      return claimed.runHandler(() => handler.apply(this, args), successStatus(wrapper, request));
    };
    for (const metadataKey of Reflect.getOwnMetadataKeys(handler))
      Reflect.defineMetadata(metadataKey, Reflect.getOwnMetadata(metadataKey, handler), wrapper);
    Object.defineProperty(wrapper, 'name', { value: handler.name });
    descriptor.value = wrapper;
  };

/** The status a success of this route answers with: its @HttpCode, else Nest's default. */
function successStatus(route: Handler, request: Request): number {
  const declared = Reflect.getMetadata(HTTP_CODE_METADATA, route) as number | undefined;
  return declared ?? (request.method === 'POST' ? HttpStatus.CREATED : HttpStatus.OK);
}
