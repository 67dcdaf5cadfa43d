import { HttpException } from '@nestjs/common';

/** An error that already carries the spec's `{error}` body; `cause` is what the exception filter logs. */
export class ApiError extends HttpException {
  constructor(status: number, error: string, cause?: unknown) {
    super({ error }, status, { cause });
  }
}

/** The message of an unknown thrown value, for the spec's `details` field. */
export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
