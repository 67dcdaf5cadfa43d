// The parts of class-transformer and class-validator that compiled-validator.ts uses beyond their
// public API (as @nestjs/mapped-types does): the packages ship them as CommonJS files whose types
// are in another folder.
declare module 'class-transformer/cjs/storage' {
  export { defaultMetadataStorage } from 'class-transformer/types/storage';
}
declare module 'class-transformer/cjs/constants/default-options.constant' {
  export { defaultOptions } from 'class-transformer/types/constants/default-options.constant';
}
declare module 'class-transformer/cjs/TransformOperationExecutor' {
  export { TransformOperationExecutor } from 'class-transformer/types/TransformOperationExecutor';
}
declare module 'class-validator/cjs/validation/ValidationUtils' {
  export { ValidationUtils } from 'class-validator/types/validation/ValidationUtils';
}
