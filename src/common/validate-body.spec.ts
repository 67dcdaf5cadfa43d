import { Type as Class } from '@nestjs/common';
import { plainToInstance } from 'class-transformer';
import { getMetadataStorage, IsIn, IsOptional, IsString, MaxLength, validateSync, ValidateIf } from 'class-validator';
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { inspect } from 'node:util';
import { ApiError } from './api-error';
import { validateBody } from './validate-body';

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
    if (error instanceof ApiError) return { status: error.getStatus(), body: error.getResponse() };
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
    // A pattern that no value of the corpus meets (a permission's `resource:action`): the API document's example.
    const example = (
      Reflect.getMetadata('swagger/apiModelProperties', dto.prototype, property) as { example?: unknown } | undefined
    )?.example;
    const value = [...valuesOf.get(property)!, example].find(
      (value) => value !== undefined && acceptedFor(property, value),
    );
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

/**
 * Every answer of validateBody to a DTO's corpus, pinned by Jest's snapshot: how many bodies, a
 * digest of every answer in order (the error's status and body, or the instance, its class and its
 * keys), and the first messages that the corpus meets. The snapshot was taken on 2026-11-26 with
 * the compiled validator that then stood in for plainToInstance and validateSync, and this spec
 * kept those answers when validateBody went back to the two libraries' public API: a change of a
 * DTO's rules, or of either library, that changes one answer fails here. Update the snapshot
 * (`npx jest -u src/common/validate-body.spec.ts`) only for a change meant to change answers.
 */
function itPinsItsAnswers(dto: Class<object>) {
  it("answers its corpus as pinned: the first failed rule's message, or the instance", () => {
    const corpus = corpusOf(dto);
    const answers = corpus.map((body) => outcome(() => validateBody(dto, body), body));
    const messages = answers.flatMap((answer) => {
      const { body } = answer as { body?: { error: string } };
      return body ? [body.error] : [];
    });
    expect({
      bodies: corpus.length,
      digest: createHash('sha256')
        .update(answers.map((answer) => inspect(answer, { depth: null })).join('\n'))
        .digest('hex')
        .slice(0, 16),
      messages: [...new Set(messages)].sort(),
    }).toMatchSnapshot();
    // Both kinds of answer are in the corpus
    expect(answers.some((answer) => (answer as { instance?: object }).instance)).toBe(true);
    expect(answers.some((answer) => (answer as { status?: number }).status === 400)).toBe(true);
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

  describe.each(dtos.map((dto) => [dto.name, dto] as const))('%s', (_, dto) => itPinsItsAnswers(dto));

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

    itPinsItsAnswers(Messages);
  });
});
