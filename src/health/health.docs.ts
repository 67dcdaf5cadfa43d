/** The API document's part for the probes, /health/live and /health/ready: operational routes. */
import { applyDecorators, HttpStatus } from '@nestjs/common';
import { ApiOperation, ApiProperty, ApiPropertyOptional, ApiResponse } from '@nestjs/swagger';
import { ApiErrorResponse } from '../common/openapi';
import { REQUEST_TIMED_OUT } from '../common/request-timeout';

/** @nestjs/terminus's answer: each check's result under info (up) or error (down), and both in details. */
export class HealthCheckBody {
  @ApiProperty({ enum: ['ok', 'error', 'shutting_down'] })
  status: string;

  @ApiPropertyOptional({ type: 'object', additionalProperties: true, description: 'The checks that are up' })
  info?: Record<string, unknown>;

  @ApiPropertyOptional({ type: 'object', additionalProperties: true, description: 'The checks that are down' })
  error?: Record<string, unknown>;

  @ApiPropertyOptional({ type: 'object', additionalProperties: true, description: 'Every check' })
  details?: Record<string, unknown>;
}

export const ApiLiveness = () =>
  applyDecorators(
    ApiOperation({ summary: 'The process is up and answering (nothing else is checked)' }),
    ApiResponse({ status: HttpStatus.OK, type: HealthCheckBody, description: '{"status":"ok"}' }),
  );

export const ApiReadiness = () =>
  applyDecorators(
    ApiOperation({
      summary: 'Whether to send this instance traffic: the database, pending migrations, Redis and the identity store',
    }),
    ApiResponse({ status: HttpStatus.OK, type: HealthCheckBody, description: 'Ready' }),
    ApiErrorResponse(
      HttpStatus.SERVICE_UNAVAILABLE,
      'Not ready: shutting down, or a check failed',
      [{ status: 'shutting_down', info: {}, error: {}, details: {} }],
      HealthCheckBody,
    ),
    ApiErrorResponse(HttpStatus.SERVICE_UNAVAILABLE, 'The request took longer than REQUEST_TIMEOUT_MS', [
      { error: REQUEST_TIMED_OUT },
    ]),
  );
