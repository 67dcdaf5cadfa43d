import {
  applyDecorators,
  ArgumentsHost,
  Catch,
  HttpException,
  HttpStatus,
  Logger,
  SetMetadata,
  Type,
  UseFilters,
} from '@nestjs/common';
import { messageOf } from './api-error';
import { HttpExceptionFilter } from './http-exception.filter';
import { ApiErrorResponse, ErrorBody, ErrorWithDetailsBody } from './openapi';

const FAILURE_RESPONSE = 'failureResponse';
const logger = new Logger('FailureResponse');

export interface FailureResponseOptions {
  /** The failure's message goes into `details` (spec 4.5–4.8). */
  details?: boolean;
  /** Other 500 bodies that the service answers itself for named failures: documented beside this one. */
  documentedWith?: object[];
  /** The body's OpenAPI schema, when it is not `{error}` or `{error, details}`. */
  type?: Type<unknown>;
}

/** Every spec 500 body has an `error`: `{error}`, `{valid:false, error}` or `{success:false, error}`. */
interface FailureBody {
  error: string;
}

interface FailureResponseMetadata {
  body: FailureBody;
  details: boolean;
}

/**
 * The spec's 500 answer of a route, declared once: an error that is not already an answer
 * (an HttpException) is logged and becomes `body`, with the error as its cause (the exception
 * filter logs its stack). Also documents the 500 in the OpenAPI document.
 * Applied by a route-scoped exception filter rather than an interceptor: it costs nothing
 * until something fails, and it sees what guards and pipes throw as well as the handler.
 */
export function FailureResponse(body: FailureBody, options: FailureResponseOptions = {}) {
  const details = options.details ?? false;
  const example = details ? { ...body, details: '<message of the failure>' } : body;
  const metadata: FailureResponseMetadata = { body, details };
  return applyDecorators(
    SetMetadata<string, FailureResponseMetadata>(FAILURE_RESPONSE, metadata),
    UseFilters(new FailureResponseFilter(metadata)),
    ApiErrorResponse(
      HttpStatus.INTERNAL_SERVER_ERROR,
      'Unexpected failure',
      [...(options.documentedWith ?? []), example],
      options.type ?? (details ? ErrorWithDetailsBody : ErrorBody),
    ),
  );
}

/** What a handler's rejection is answered with: an HttpException as it is, anything else as the route's 500. */
export function failureResponse(handler: object, error: unknown): unknown {
  return answerFor(Reflect.getMetadata(FAILURE_RESPONSE, handler) as FailureResponseMetadata | undefined, error);
}

function answerFor(failure: FailureResponseMetadata | undefined, error: unknown): unknown {
  if (error instanceof HttpException || !failure) return error;
  logger.error(`${failure.body.error}: ${messageOf(error)}`);
  const body = failure.details ? { ...failure.body, details: messageOf(error) } : failure.body;
  return new HttpException(body, HttpStatus.INTERNAL_SERVER_ERROR, { cause: error });
}

/** The route's @FailureResponse, applied to whatever its guards, pipes and handler throw, then shaped as every error is. */
@Catch()
export class FailureResponseFilter extends HttpExceptionFilter {
  constructor(private readonly failure: FailureResponseMetadata) {
    super();
  }

  override catch(exception: unknown, host: ArgumentsHost): void {
    super.catch(answerFor(this.failure, exception), host);
  }
}
