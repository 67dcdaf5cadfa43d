import { HttpException } from '@nestjs/common';

/** An error that already carries the spec's body: `{error}` or `{error, details}`. */
export class ApiError extends HttpException {
  constructor(status: number, error: string, details?: string) {
    super(details === undefined ? { error } : { error, details }, status);
  }
}

/** The message of an unknown thrown value, for the spec's `details` field. */
export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
