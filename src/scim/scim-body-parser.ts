import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { jsonBodyParser } from '../common/json-body-parser';
import { SCIM_CONTENT_TYPE, toScimError } from './scim-errors';
import { writeScimError } from './scim-exception.filter';

/** The SCIM routes' body limit (docs/scim.md): identity providers push groups of many members at once. */
export const SCIM_BODY_LIMIT_BYTES = 1024 * 1024;

/**
 * Mounted on /scim/v2 before the API's JSON parser: reads `application/scim+json` and
 * `application/json` bodies up to SCIM_BODY_LIMIT_BYTES, and answers its refusals (413, 400, 415)
 * in SCIM's error form.
 */
export function scimBodyParser(): RequestHandler {
  const parse = jsonBodyParser(SCIM_BODY_LIMIT_BYTES, ['application/json', SCIM_CONTENT_TYPE]);
  return (request: Request, response: Response, next: NextFunction) =>
    parse(request, response, (error?: unknown) => {
      if (!error) return next();
      const { status, body } = toScimError(error);
      writeScimError(response, status, body);
    });
}
