import { Controller, HttpStatus, Post } from '@nestjs/common';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import { Test } from '@nestjs/testing';
import { ApiErrorResponse, ErrorBody } from './openapi';
import { Refusal, refusalBody, refusalSchema } from './refusal';

const CODES = { taken: 'NAME_TAKEN', limit: 'NAME_LIMIT' } as const;
const NameRefusalBody = refusalSchema('NameRefusalBody', Object.values(CODES));
const NameLimitBody = refusalSchema('NameLimitBody', [CODES.limit], {
  limit: { type: 'number', description: 'The limit' },
});

@Controller('names')
class NamesController {
  /** A route's own refusal at 409 beside another layer's `{error}` at the same status (as Idempotency-Key's). */
  @Post()
  @ApiErrorResponse(HttpStatus.CONFLICT, 'Taken', [refusalBody(CODES.taken)], NameRefusalBody)
  @ApiErrorResponse(HttpStatus.CONFLICT, 'Still in progress', [{ error: 'In progress' }])
  @ApiErrorResponse(HttpStatus.UNPROCESSABLE_ENTITY, 'Too many', [refusalBody(CODES.limit)], NameRefusalBody)
  create() {}

  @Post('limits')
  @ApiErrorResponse(
    HttpStatus.UNPROCESSABLE_ENTITY,
    'Too many',
    [refusalBody(CODES.limit, { limit: 3 })],
    NameLimitBody,
  )
  limit() {}
}

describe('refusals: {success:false, error:CODE}', () => {
  it('the body is exactly {"success":false,"error":CODE}, and the exception answers it with its status', () => {
    expect(JSON.stringify(refusalBody(CODES.taken))).toBe('{"success":false,"error":"NAME_TAKEN"}');
    const refusal = new Refusal(HttpStatus.CONFLICT, CODES.taken);
    expect([refusal.getStatus(), refusal.getResponse()]).toEqual([409, { success: false, error: 'NAME_TAKEN' }]);
  });

  it('what a refusal is about comes after the code: {"success":false,"error":CODE,...details}', () => {
    expect(JSON.stringify(refusalBody(CODES.limit, { limit: 3 }))).toBe(
      '{"success":false,"error":"NAME_LIMIT","limit":3}',
    );
    expect(new Refusal(HttpStatus.UNPROCESSABLE_ENTITY, CODES.limit, { limit: 3 }).getResponse()).toEqual({
      success: false,
      error: 'NAME_LIMIT',
      limit: 3,
    });
  });

  describe('in the OpenAPI document', () => {
    let document: ReturnType<typeof SwaggerModule.createDocument>;
    beforeAll(async () => {
      const moduleRef = await Test.createTestingModule({ controllers: [NamesController] }).compile();
      const app = moduleRef.createNestApplication({ logger: false });
      document = SwaggerModule.createDocument(app, new DocumentBuilder().build());
      await app.close();
    });
    const schemaAt = (status: string) =>
      (
        document.paths['/names'].post!.responses[status] as unknown as {
          content: { 'application/json': { schema: unknown } };
        }
      ).content['application/json'].schema;

    it('refusalSchema: the optional fields a refusal adds, after success and error', () => {
      expect(document.components!.schemas!.NameLimitBody).toEqual({
        type: 'object',
        properties: {
          success: { type: 'boolean', enum: [false] },
          error: { type: 'string', enum: ['NAME_LIMIT'] },
          limit: { type: 'number', description: 'The limit' },
        },
        required: ['success', 'error'],
      });
    });

    it('refusalSchema: a component of that name, success false and error one of the codes, both required', () => {
      expect(document.components!.schemas!.NameRefusalBody).toEqual({
        type: 'object',
        properties: {
          success: { type: 'boolean', enum: [false] },
          error: { type: 'string', enum: ['NAME_TAKEN', 'NAME_LIMIT'] },
        },
        required: ['success', 'error'],
      });
    });

    it('one schema at a status documents that schema; two at one status, either one (anyOf)', () => {
      expect(schemaAt('422')).toEqual({ $ref: '#/components/schemas/NameRefusalBody' });
      expect(schemaAt('409')).toEqual({
        anyOf: [{ $ref: `#/components/schemas/${ErrorBody.name}` }, { $ref: '#/components/schemas/NameRefusalBody' }],
      });
      expect(document.components!.schemas!.ErrorBody).toBeDefined();
    });
  });
});
