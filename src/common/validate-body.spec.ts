import { HttpException, Type as Class } from '@nestjs/common';
import { Expose, plainToInstance, Type } from 'class-transformer';
import {
  getMetadataStorage,
  IsIn,
  IsOptional,
  IsString,
  MaxLength,
  validateSync,
  ValidateIf,
  ValidateNested,
  ValidationError,
} from 'class-validator';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { CompiledValidator } from './compiled-validator';
import { validateBody } from './validate-body';

/** validateBody as it was before CompiledValidator: the oracle that the compiled path must answer as. */
function validateBodyGenerally<T extends object>(dto: Class<T>, body: unknown): T {
  const plain = body ?? {};
  if (typeof plain !== 'object' || Array.isArray(plain)) throw new HttpException({ error: NOT_AN_OBJECT }, 400);
  const instance = plainToInstance(dto, plain);
  const errors = validateSync(instance, { whitelist: true, stopAtFirstError: true, forbidUnknownValues: false });
  if (errors.length) throw new HttpException({ error: firstMessage(errors[0]) }, 400);
  return instance;
}
const NOT_AN_OBJECT = 'Request body must be a JSON object';
function firstMessage(error: ValidationError): string {
  const constraints = Object.values(error.constraints ?? {});
  if (constraints.length) return constraints[0];
  return error.children?.length ? firstMessage(error.children[0]) : `${error.property} is invalid`;
}

/** The answer to a body: the error (status and body), or the instance, its class and its keys in order. */
function outcome(validate: () => object, body: unknown): unknown {
  try {
    const instance = validate();
    const given = typeof body === 'object' && body !== null ? Object.values(body) : [];
    return {
      instance,
      prototype: Object.getPrototypeOf(instance),
      keys: Object.keys(instance),
      // plainToInstance copies arrays and objects
      sharesWithBody: Object.values(instance).some((value) => typeof value === 'object' && given.includes(value)),
    };
  } catch (error) {
    if (error instanceof HttpException) return { status: error.getStatus(), body: error.getResponse() };
    return { thrown: String(error) };
  }
}

/** Every class of src with class-validator rules: the files that import class-validator, loaded by path. */
function everyDto(): Class<object>[] {
  const src = join(__dirname, '..');
  const files = readdirSync(src, { recursive: true, encoding: 'utf8' }).filter(
    (file) =>
      /\.ts$/.test(file) &&
      !/\.(spec|d)\.ts$/.test(file) &&
      readFileSync(join(src, file), 'utf8').includes("from 'class-validator'"),
  );
  const classes = files.flatMap((file) =>
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- files found by path, whatever their layer
    Object.values(require(join(src, file)) as Record<string, unknown>),
  );
  return [...new Set(classes)].filter(
    (value): value is Class<object> => typeof value === 'function' && propertiesOf(value as Class<object>).length > 0,
  );
}

const propertiesOf = (dto: Class<object>) =>
  Object.keys(
    getMetadataStorage().groupByPropertyName(getMetadataStorage().getTargetValidationMetadatas(dto, '', false, false)),
  );

const EMAIL_LOCAL_64 = `${'a'.repeat(64)}@example.com`;

/** Values for any property: missing, empty, each JSON type, lengths, formats (e-mail, date, integer, cursor). */
const ANY_VALUES: unknown[] = [
  undefined,
  null,
  '',
  ' ',
  'x',
  '  padded  ',
  0,
  1,
  -1,
  1.5,
  100,
  1e21,
  true,
  false,
  [],
  [''],
  ['x'],
  [1],
  [null],
  {},
  { x: 1 },
  [{ x: 1 }],
  '\u0000',
  'a\u0000b',
  'a\u0007b',
  'tab\tand\nnewline',
  'été 😀',
  'someone@example.com',
  ' Someone@Example.COM ',
  'someone@example',
  'not-an-email',
  'a@b.c',
  '@example.com',
  'someone@',
  'some one@example.com',
  EMAIL_LOCAL_64,
  `a${EMAIL_LOCAL_64}`,
  `someone@${'a'.repeat(250)}.com`,
  '2024-01-01T00:00:00Z',
  '2024-01-01T00:00:00.000+02:00',
  '2024-01-01',
  '2024-13-01T00:00:00Z',
  '2024-01-01 00:00:00Z',
  '0',
  '1',
  '01',
  '007',
  '50',
  '99',
  '100',
  '101',
  '1000',
  ' 5 ',
  '5x',
  '-1',
  '1e2',
  '1.5',
  '9'.repeat(20),
  'A-Za_z09',
  'abc=',
  'ab+/',
  'a'.repeat(2048),
  'a'.repeat(2049),
];

/** Values from a property's rules: each allowed value and lists of them, each bound and a length or number beside it. */
function valuesFromRules(dto: Class<object>, property: string): unknown[] {
  const rules = getMetadataStorage()
    .getTargetValidationMetadatas(dto, '', false, false)
    .filter((metadata) => metadata.propertyName === property);
  return rules.flatMap(({ constraints = [] }) =>
    constraints.flat().flatMap((constraint: unknown): unknown[] => {
      if (typeof constraint === 'string')
        return [
          constraint,
          constraint.toUpperCase(),
          ` ${constraint}`,
          [constraint],
          [constraint, constraint],
          [constraint, 'bogus'],
        ];
      if (typeof constraint === 'number')
        return [constraint - 1, constraint, constraint + 1, String(constraint), String(constraint + 1)].concat(
          constraint > 0 && constraint <= 10_000
            ? ['a'.repeat(constraint), 'a'.repeat(constraint + 1), ` ${'a'.repeat(constraint - 1)} `]
            : [],
        );
      return [];
    }),
  );
}

/**
 * Bodies for a DTO: not objects; empty; a valid one (each property its first value that validateSync
 * accepts for it); that one with each property missing, moved last or given each value, or two of
 * them changed (which error comes first); with unknown fields; and each object again without a
 * prototype, as a query parser makes them.
 */
function corpusOf(dto: Class<object>): unknown[] {
  const properties = propertiesOf(dto);
  const valuesOf = new Map(
    properties.map((property) => [property, [...ANY_VALUES, ...valuesFromRules(dto, property)]]),
  );
  const acceptedFor = (property: string, value: unknown) =>
    !validateSync(plainToInstance(dto, { [property]: value }), { forbidUnknownValues: false }).some(
      (error) => error.property === property,
    );
  const valid: Record<string, unknown> = {};
  for (const property of properties) {
    const value = valuesOf.get(property)!.find((value) => value !== undefined && acceptedFor(property, value));
    if (value !== undefined) valid[property] = value;
  }
  const without = (property: string) => Object.fromEntries(Object.entries(valid).filter(([key]) => key !== property));
  const objects: object[] = [
    {},
    valid,
    { ...valid, extra: 'x', toString: 'x', hasOwnProperty: 1, nested: { a: 1 } },
    { extra: 'x', ...valid, constructor: 'x' },
    // a field named __proto__, as JSON.parse makes it
    Object.assign(JSON.parse(`{"__proto__": {"${properties[0]}": "x"}}`), valid),
    ...properties.flatMap((property) => [
      without(property),
      ...valuesOf.get(property)!.map((value) => ({ ...valid, [property]: value })),
      { extra: 'x', ...without(property), [property]: valid[property] },
    ]),
    ...properties.flatMap((first, index) =>
      properties.slice(index + 1).flatMap((second) =>
        valuesOf
          .get(first)!
          .filter((_, at) => at % 3 === 0)
          .flatMap((a) =>
            valuesOf
              .get(second)!
              .filter((_, at) => at % 3 === 0)
              .map((b) => ({ ...valid, [first]: a, [second]: b })),
          ),
      ),
    ),
  ];
  const withoutPrototype = objects.map((body) => Object.assign(Object.create(null), body));
  return [undefined, null, 0, 'x', true, [], [valid], ...objects, ...withoutPrototype];
}

/** The DTO is compiled and, for each body of its corpus, validateBody answers as validateBodyGenerally. */
function itAnswersAsTheGeneralPath(dto: Class<object>) {
  const corpus = corpusOf(dto);

  it('is compiled', () => {
    expect(CompiledValidator.of(dto)).not.toBeNull();
  });

  it(`answers as plainToInstance and validateSync, for each of ${corpus.length} bodies`, () => {
    const answers = corpus.map((body) => ({
      body,
      compiled: outcome(() => validateBody(dto, body), body),
      general: outcome(() => validateBodyGenerally(dto, body), body),
    }));
    expect(answers.filter(({ compiled, general }) => !isDeepStrictEqual(compiled, general)).slice(0, 3)).toEqual([]);
    // Both kinds of answer are in the corpus
    expect(answers.some(({ general }) => (general as { instance?: object }).instance)).toBe(true);
    expect(answers.some(({ general }) => (general as { status?: number }).status)).toBe(true);
  });
}

describe(validateBody.name, () => {
  const dtos = everyDto();

  it('finds every DTO of src', () => {
    expect(dtos.map(({ name }) => name)).toEqual(
      expect.arrayContaining([
        'InviteDto',
        'TenantInvitationDto',
        'PageQueryDto',
        'ListAuditEventsQuery',
        'UpdateTenantDto',
      ]),
    );
  });

  describe.each(dtos.map((dto) => [dto.name, dto] as const))('%s', (_, dto) => itAnswersAsTheGeneralPath(dto));

  describe('a DTO with default messages, message functions, $tokens and a condition of one rule', () => {
    class Messages {
      // a rule's own condition: no bound from 100 characters
      @MaxLength(3, { validateIf: (_: Messages, value: unknown) => typeof value === 'string' && value.length < 100 })
      @IsString({ message: ({ property, value }) => `${property} is a ${typeof value}` })
      @IsOptional()
      name?: string;

      @IsIn(['member', 'admin'], { each: true, message: '$property of $target: $constraint1, not $value' })
      @ValidateIf(({ name }: Messages) => name !== 'admin')
      roles?: string[];
    }

    itAnswersAsTheGeneralPath(Messages);
  });

  describe('a DTO with what the compiled path does not reproduce', () => {
    class Child {
      @MaxLength(3, { message: 'name is long' })
      @IsString({ message: 'name is not a string' })
      name: string;
    }
    class Parent {
      @ValidateNested()
      @Type(() => Child)
      child: Child;
    }
    class Renamed {
      @Expose({ name: 'full_name' })
      @IsString({ message: 'not a string' })
      fullName: string;
    }

    class WithUnvalidatedDefault {
      @IsString({ message: 'not a string' })
      name: string;

      page = 1;
    }

    it.each([
      [WithUnvalidatedDefault, { name: 'x', page: 2 }],
      [WithUnvalidatedDefault, { name: 1 }],
      [Parent, { child: { name: 'abc' } }],
      [Parent, { child: { name: 'abcd' } }],
      [Parent, { child: { name: 1 }, extra: 1 }],
      [Parent, { child: 'x' }],
      [Renamed, { full_name: 'x' }],
      [Renamed, { fullName: 'x' }],
    ] as const)('%p takes the general path: %j', (dto: Class<object>, body) => {
      expect(CompiledValidator.of(dto)).toBeNull();
      expect(outcome(() => validateBody(dto, body), body)).toStrictEqual(
        outcome(() => validateBodyGenerally(dto, body), body),
      );
    });
  });
});
