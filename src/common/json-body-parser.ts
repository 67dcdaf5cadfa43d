import { HttpStatus } from '@nestjs/common';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { json } from 'express';
import { ApiError } from './api-error';

const BODY_PARSER_ERRORS: Record<string, [number, string]> = {
  'entity.parse.failed': [HttpStatus.BAD_REQUEST, 'Malformed JSON body'],
  'entity.too.large': [HttpStatus.PAYLOAD_TOO_LARGE, 'Request body too large'],
  'entity.verify.failed': [HttpStatus.BAD_REQUEST, 'Malformed JSON body'],
  'encoding.unsupported': [HttpStatus.UNSUPPORTED_MEDIA_TYPE, 'Unsupported content encoding'],
  'charset.unsupported': [HttpStatus.UNSUPPORTED_MEDIA_TYPE, 'Unsupported charset'],
  'request.aborted': [HttpStatus.BAD_REQUEST, 'Request aborted'],
  'request.size.invalid': [HttpStatus.BAD_REQUEST, 'Request size did not match its Content-Length'],
};

/**
 * Parses application/json bodies only (objects and arrays, as body-parser's strict mode), and
 * turns the parser's failures into the service's error shape with a clear message.
 */
export function jsonBodyParser(limit: string): RequestHandler {
  const parse = json({ limit, strict: true });
  return (request: Request, response: Response, next: NextFunction) =>
    parse(request, response, (error?: { type?: string; status?: number }) => {
      if (!error) return next();
      const [status, message] = BODY_PARSER_ERRORS[error.type ?? ''] ?? [error.status ?? 400, 'Bad request body'];
      next(new ApiError(status, message));
    });
}
