import { Type } from '@nestjs/common';
import { TransformationType, TransformFnParams } from 'class-transformer';
import { defaultOptions } from 'class-transformer/cjs/constants/default-options.constant';
import { defaultMetadataStorage as transformerMetadata } from 'class-transformer/cjs/storage';
import { TransformOperationExecutor } from 'class-transformer/cjs/TransformOperationExecutor';
import {
  getMetadataStorage,
  ValidationArguments,
  ValidationTypes,
  ValidatorConstraintInterface,
} from 'class-validator';
import { ValidationUtils } from 'class-validator/cjs/validation/ValidationUtils';
import type { ValidationMetadata } from 'class-validator/types/metadata/ValidationMetadata';

const compiledByDto = new WeakMap<Type<object>, CompiledValidator<object> | null>();

/** What plainToInstance gives each @Transform function. */
const TRANSFORM_OPTIONS = { ...defaultOptions };

/**
 * validateBody's fast path. On every call, plainToInstance and validateSync look up again each
 * decorator's metadata of the DTO, most of the cost of validating a small body. A CompiledValidator
 * reads it once per DTO class and keeps, for each validated property, its @Transform functions, its
 * conditions (@IsOptional, @ValidateIf) and the validators of its rules, so that a call runs only
 * those: `instantiate` makes the instance that plainToInstance and validateSync's whitelist make,
 * and `firstFailure` finds the error that validateSync would list first, with its message.
 */
export class CompiledValidator<T extends object> {
  private constructor(
    private readonly dto: Type<T>,
    private readonly properties: Map<string, Property>,
  ) {}

  /** The DTO's compiled validator; null for a DTO with what it does not reproduce (see `compile`). */
  static of<T extends object>(dto: Type<T>): CompiledValidator<T> | null {
    let validator = compiledByDto.get(dto);
    if (validator === undefined) compiledByDto.set(dto, (validator = CompiledValidator.compile(dto)));
    return validator as CompiledValidator<T> | null;
  }

  /**
   * Only what it reproduces: rules and conditions (not @ValidateNested, @ValidatePromise,
   * @IsDefined or @Allow); no @Type, @Expose or @Exclude; no property named as a method or
   * accessor, nor set to a function by the constructor (plainToInstance leaves those as they
   * are); a constructor that sets validated properties only (the whitelist deletes the others).
   */
  private static compile<T extends object>(dto: Type<T>): CompiledValidator<T> | null {
    const storage = getMetadataStorage();
    // validateSync's look-up, without groups
    const rulesOf = storage.groupByPropertyName(storage.getTargetValidationMetadatas(dto, '', false, false));
    const keys = Object.keys(rulesOf);
    const rulesAndConditionsOnly = Object.values(rulesOf)
      .flat()
      .every(
        ({ type }) => type === ValidationTypes.CUSTOM_VALIDATION || type === ValidationTypes.CONDITIONAL_VALIDATION,
      );
    const defaultTransformation =
      transformerMetadata.getStrategy(dto) === 'none' &&
      !transformerMetadata.getExposedMetadatas(dto).length &&
      !transformerMetadata.getExcludedMetadatas(dto).length &&
      keys.every((key) => !(key in dto.prototype) && !transformerMetadata.findTypeMetadata(dto, key));
    const initialValuesKept = Object.entries(new dto()).every(
      ([key, value]) => keys.includes(key) && !(value instanceof Function),
    );
    if (!rulesAndConditionsOnly || !defaultTransformation || !initialValuesKept) return null;
    const ofType = (key: string, type: string) => rulesOf[key].filter((metadata) => metadata.type === type);
    return new CompiledValidator(
      dto,
      new Map(
        keys.map((key) => [
          key,
          {
            key,
            transforms: transformerMetadata
              .findTransformMetadatas(dto, key, TransformationType.PLAIN_TO_CLASS)
              // plainToInstance without groups skips the transforms of a group
              .filter(({ options }) => !options?.groups?.length)
              .map(({ transformFn }) => transformFn),
            conditions: ofType(key, ValidationTypes.CONDITIONAL_VALIDATION).map(({ constraints }) => constraints[0]),
            rules: ofType(key, ValidationTypes.CUSTOM_VALIDATION).map((metadata) => ({
              metadata,
              // validateSync skips asynchronous validators
              validators: storage
                .getTargetValidatorConstraints(metadata.constraintCls)
                .filter(({ async }) => !async)
                .map(({ instance }) => instance),
            })),
          },
        ]),
      ),
    );
  }

  /** The DTO as plainToInstance(dto, plain) makes it, without the fields that the whitelist deletes. */
  instantiate(plain: object): T {
    const instance = new this.dto() as Record<string, unknown>;
    for (const key of Object.keys(plain)) {
      const property = this.properties.get(key);
      if (property === undefined) continue;
      let value = copied((plain as Record<string, unknown>)[key]);
      for (const transform of property.transforms) {
        value = transform({
          value,
          key,
          obj: plain,
          type: TransformationType.PLAIN_TO_CLASS,
          options: TRANSFORM_OPTIONS,
        });
      }
      instance[key] = value;
    }
    return instance as T;
  }

  /**
   * The first error of validateSync in `instance`, as validateBody runs it (stopAtFirstError):
   * properties in its order, the first rule that fails on the first property that has one.
   */
  firstFailure(instance: T): Failure | undefined {
    for (const { key, conditions, rules } of this.properties.values()) {
      const value = (instance as Record<string, unknown>)[key];
      if (!conditions.every((condition) => condition(instance, value))) continue;
      for (const { metadata, validators } of rules) {
        if (metadata.validateIf && !metadata.validateIf(instance, value)) continue;
        const args: ValidationArguments = {
          targetName: this.dto.name,
          property: key,
          object: instance,
          value,
          constraints: metadata.constraints,
        };
        const items = metadata.each ? itemsOf(value) : undefined;
        const failed = validators.find((validator) => !holds(validator, value, items, args));
        // class-validator's message: the rule's own, or else the validator's default, with its $tokens replaced
        if (failed) {
          const message =
            metadata.message || (failed.defaultMessage instanceof Function ? failed.defaultMessage(args) : '');
          return { message: ValidationUtils.replaceMessageSpecialTokens(message, args) };
        }
      }
    }
    return undefined;
  }
}

/** An error of validateBody: the message of the first rule that failed. */
export interface Failure {
  message: string;
}

interface Property {
  key: string;
  transforms: ((params: TransformFnParams) => unknown)[];
  conditions: ((object: object, value: unknown) => boolean)[];
  rules: { metadata: ValidationMetadata; validators: ValidatorConstraintInterface[] }[];
}

/**
 * The value plainToInstance takes for a property without @Type: its own copy of an object or an
 * array (made by the call it makes for each property), any other value as it is.
 */
function copied(value: unknown): unknown {
  if (typeof value !== 'object' || value === null) return value;
  return new TransformOperationExecutor(TransformationType.PLAIN_TO_CLASS, TRANSFORM_OPTIONS).transform(
    undefined,
    value,
    undefined as never,
    undefined as never,
    value instanceof Map,
    1,
  );
}

/**
 * Whether a validator accepts the value, or with `each` every item of it, as validateSync checks:
 * one that answers with a promise (asynchronously) leaves the rule unchecked.
 */
function holds(
  validator: ValidatorConstraintInterface,
  value: unknown,
  items: unknown[] | undefined,
  args: ValidationArguments,
): unknown {
  if (!items) return validator.validate(value, args);
  const results = items.map((item) => validator.validate(item, args));
  return results.some(isPromise) || results.every((result) => result);
}

/** class-validator's test of a promise. */
const isPromise = (result: unknown) =>
  result !== null && typeof result === 'object' && typeof (result as PromiseLike<unknown>).then === 'function';

/** The items that a rule with `each` checks one by one; undefined for a value that it checks whole. */
function itemsOf(value: unknown): unknown[] | undefined {
  if (Array.isArray(value)) return value;
  if (value instanceof Set) return [...value];
  if (value instanceof Map) return [...value.values()];
  return undefined;
}
