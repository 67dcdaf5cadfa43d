import { Column, ColumnOptions, PrimaryColumn } from 'typeorm';

type Options = Pick<ColumnOptions, 'name' | 'nullable'>;

/** A string id; 36 characters holds a UUID, identity-store ids take up to 128. */
export const IdColumn = (length = 36) => PrimaryColumn({ type: 'varchar', length });

export const VarcharColumn = (length: number, options: Options = {}) => Column({ type: 'varchar', length, ...options });

/** Millisecond precision on both dialects; stored in UTC, which operators rely on (docs/deploying.md). */
export const TimestampColumn = (name: string, options: Omit<Options, 'name'> = {}) =>
  Column({ name, type: 'datetime', precision: 3, ...options });
