import { HttpStatus } from '@nestjs/common';
import { parse as parseContentType } from 'content-type';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { Readable } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import getRawBody from 'raw-body';
import { ApiError } from './api-error';
import { closeAfterAnswer } from './lingering-close';

/** Deeper bodies are refused before JSON.parse: no body of this API nests beyond 2. */
export const MAX_JSON_DEPTH = 32;

/** The body size limit of the API (413 beyond). */
export const JSON_BODY_LIMIT_BYTES = 100 * 1024;

/** The parser's refusals of a body, for the API document (see ApiJsonBody). */
export const JSON_BODY_ERRORS = {
  malformed: 'Malformed JSON body',
  tooDeep: 'JSON body nested too deeply',
  tooLarge: 'Request body too large',
  notUtf8: 'Unsupported charset: JSON must be UTF-8',
  unsupportedEncoding: 'Unsupported content encoding',
} as const;
const { malformed: MALFORMED, tooLarge: TOO_LARGE } = JSON_BODY_ERRORS;

const DECOMPRESSORS: Record<string, () => NodeJS.ReadWriteStream> = {
  gzip: createGunzip,
  deflate: createInflate,
  br: createBrotliDecompress,
};

/** raw-body's failures; anything else (a broken compressed stream, say) is a bad body. */
const READ_ERRORS: Record<string, [number, string]> = {
  'entity.too.large': [HttpStatus.PAYLOAD_TOO_LARGE, TOO_LARGE],
  'request.aborted': [HttpStatus.BAD_REQUEST, 'Request aborted'],
  'request.size.invalid': [HttpStatus.BAD_REQUEST, 'Request size did not match its Content-Length'],
};

const hasBody = (request: Request) =>
  request.headers['transfer-encoding'] !== undefined || request.headers['content-length'] !== undefined;

function contentTypeOf(request: Request): { type: string; charset?: string } | null {
  try {
    const { type, parameters } = parseContentType(request.headers['content-type'] ?? '');
    return { type, charset: parameters.charset?.toLowerCase() };
  } catch {
    return null; // absent or malformed: not JSON
  }
}

/** True when `text` opens more than `max` objects or arrays inside one another (strings skipped). */
export function nestsDeeperThan(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const char = text.charCodeAt(i);
    if (inString) {
      if (char === 0x5c)
        i++; // backslash: skip the escaped character
      else if (char === 0x22) inString = false;
    } else if (char === 0x22) inString = true;
    else if (char === 0x7b || char === 0x5b) {
      if (++depth > max) return true;
    } else if (char === 0x7d || char === 0x5d) depth--;
  }
  return false;
}

/** Objects and arrays only (body-parser's strict mode); an empty body is no body. */
function parseJson(text: string): unknown {
  const trimmed = text.trimStart();
  if (trimmed === '') return undefined;
  if (trimmed[0] !== '{' && trimmed[0] !== '[') throw new ApiError(HttpStatus.BAD_REQUEST, MALFORMED);
  if (nestsDeeperThan(trimmed, MAX_JSON_DEPTH)) throw new ApiError(HttpStatus.BAD_REQUEST, JSON_BODY_ERRORS.tooDeep);
  try {
    return JSON.parse(trimmed);
  } catch {
    throw new ApiError(HttpStatus.BAD_REQUEST, MALFORMED);
  }
}

/**
 * Parses `application/json` bodies in UTF-8 only; any other body reaches the rules as an empty
 * one. Reads with raw-body rather than body-parser, because on a failed read body-parser reads
 * the rest of the request before answering: a body declared over `limitBytes` is refused at
 * once, one that grows past it (chunked, or inflated) as soon as it does, and either way the
 * connection is closed after the 413, once the client has stopped sending or a short bound has
 * passed (closeAfterAnswer), rather than after the whole body has been read.
 */
export function jsonBodyParser(limitBytes: number, mediaTypes: string[] = ['application/json']): RequestHandler {
  return utf8BodyParser(limitBytes, mediaTypes, JSON_BODY_ERRORS.notUtf8, parseJson);
}

/**
 * Reads a `text/csv` body as its text, for the routes it is mounted on (the others never see one):
 * the same limits and encodings as JSON, UTF-8 only. The byte order mark is left to the CSV parser.
 */
export function csvBodyParser(limitBytes: number): RequestHandler {
  return utf8BodyParser(limitBytes, ['text/csv'], CSV_NOT_UTF8, (text) => text);
}

/**
 * Reads an `application/x-www-form-urlencoded` body as an object of its fields (the last of a
 * repeated one), for the routes it is mounted on: a SAML provider's form POST. Same limits as JSON.
 */
export function formBodyParser(limitBytes: number): RequestHandler {
  return utf8BodyParser(limitBytes, ['application/x-www-form-urlencoded'], FORM_NOT_UTF8, (text) =>
    Object.fromEntries(new URLSearchParams(text)),
  );
}

/** The form body parser's 415. */
export const FORM_NOT_UTF8 = 'Unsupported charset: a form must be UTF-8';

/** The CSV body parser's 415. */
export const CSV_NOT_UTF8 = 'Unsupported charset: CSV must be UTF-8';

/** A body of one media type, in UTF-8, read as text and given to `parse`; any other body passes untouched. */
function utf8BodyParser(
  limitBytes: number,
  mediaTypes: string[],
  notUtf8: string,
  parse: (text: string) => unknown,
): RequestHandler {
  return (request: Request, response: Response, next: NextFunction) => {
    // A parser mounted on a path before this one has read the body already.
    if (!hasBody(request) || (request as { bodyRead?: boolean }).bodyRead) return next();
    const contentType = contentTypeOf(request);
    if (!contentType || !mediaTypes.includes(contentType.type)) return next();
    (request as { bodyRead?: boolean }).bodyRead = true;
    if (contentType.charset !== undefined && contentType.charset !== 'utf-8' && contentType.charset !== 'utf8') {
      return next(new ApiError(HttpStatus.UNSUPPORTED_MEDIA_TYPE, notUtf8));
    }
    // A broken body leaves unread bytes on the connection: it is not reused.
    const refuse = (status: number, message: string) => {
      closeAfterAnswer(request, response);
      next(new ApiError(status, message));
    };
    const declared = Number(request.headers['content-length']);
    if (declared > limitBytes) return refuse(HttpStatus.PAYLOAD_TOO_LARGE, TOO_LARGE);

    const encoding = (request.headers['content-encoding'] ?? 'identity').toLowerCase();
    let stream: Readable = request;
    if (encoding !== 'identity') {
      const decompressor = DECOMPRESSORS[encoding];
      if (!decompressor) return refuse(HttpStatus.UNSUPPORTED_MEDIA_TYPE, JSON_BODY_ERRORS.unsupportedEncoding);
      stream = request.pipe(decompressor()) as unknown as Readable;
    }
    const length = encoding === 'identity' && declared > 0 ? declared : undefined;
    getRawBody(stream, { limit: limitBytes, length, encoding: 'utf-8' }).then(
      (text) => {
        let body: unknown;
        try {
          body = parse(text);
        } catch (error) {
          return next(error);
        }
        request.body = body;
        next();
      },
      (error: { type?: string }) => {
        if (stream !== request) request.unpipe();
        const [status, message] = READ_ERRORS[error.type ?? ''] ?? [HttpStatus.BAD_REQUEST, 'Bad request body'];
        refuse(status, message);
      },
    );
  };
}
