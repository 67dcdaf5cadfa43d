/** The API document's part for the setup page's own routes: the page `/setup` and its script (browser routes). */
import { applyDecorators, HttpStatus } from '@nestjs/common';
import { ApiExtraModels, ApiOperation, ApiParam, ApiResponse, getSchemaPath } from '@nestjs/swagger';
import { ErrorBody } from '../../common/openapi';
import { SETUP_SCRIPT_FILES } from './setup-page.assets';

const PAGE = { schema: { type: 'string' } } as const;

export const ApiShowSetupPage = () =>
  applyDecorators(
    ApiOperation({
      summary: 'The setup’s page: one step per granted intent, in the order domain, single sign-on, SCIM; then Finish',
      description:
        'Rendered from GET /api/setup for the setup session of the request (its cookie); its script calls the ' +
        '/api/setup routes. Without a setup session (none, or its link completed, revoked or expired, or the ' +
        'organisation suspended): 401, a page that says to open the link again. The invitation page’s headers: a ' +
        'policy that runs the page’s own script and style by nonce, no Referer, no caching, no indexing.',
    }),
    ApiResponse({ status: HttpStatus.OK, description: 'The page', ...PAGE }),
    ApiResponse({ status: HttpStatus.UNAUTHORIZED, description: 'No setup session: open the link again', ...PAGE }),
  );

export const ApiSetupPageScript = () =>
  applyDecorators(
    ApiOperation({
      summary: 'The setup page’s script: ES modules, loaded by the page under its nonce',
      description: 'Static files, the same for every visitor.',
    }),
    ApiParam({ name: 'file', enum: SETUP_SCRIPT_FILES }),
    ApiExtraModels(ErrorBody),
    ApiResponse({ status: HttpStatus.OK, description: 'The module', content: { 'text/javascript': PAGE } }),
    ApiResponse({
      status: HttpStatus.NOT_FOUND,
      description: 'No such file',
      content: { 'application/json': { schema: { $ref: getSchemaPath(ErrorBody) } } },
    }),
  );
