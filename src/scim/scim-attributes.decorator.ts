import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import type { Request } from 'express';
import { Projection, readProjection } from './scim-projection';

/**
 * The projection that the query's `attributes` and `excludedAttributes` ask for (RFC 7644 section
 * 3.9). Read before the handler runs, so that a bad one is refused (400) before anything is written.
 */
export const ScimAttributes = createParamDecorator((_: unknown, context: ExecutionContext): Projection =>
  readProjection(context.switchToHttp().getRequest<Request>().query),
);
