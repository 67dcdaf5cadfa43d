/** The API document's part for GET /metrics (an operational route). */
import { applyDecorators, HttpStatus } from '@nestjs/common';
import { ApiOperation, ApiResponse } from '@nestjs/swagger';

export const ApiMetrics = () =>
  applyDecorators(
    ApiOperation({ summary: 'Prometheus metrics, in its text format (operators keep it off the public listener)' }),
    ApiResponse({
      status: HttpStatus.OK,
      description: 'The metrics',
      content: { 'text/plain': { schema: { type: 'string' } } },
    }),
  );
