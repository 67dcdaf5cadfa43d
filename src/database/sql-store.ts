import { Injectable } from '@nestjs/common';

// eslint-disable-next-line @typescript-eslint/no-unsafe-function-type -- a class, whatever its constructor
type StoreClass = Function;

const stores = new Set<StoreClass>();

/**
 * A class that holds SQL (a store): injectable as @Injectable() makes it, and registered, so that
 * test/sql-snapshots.integration-spec.ts finds every store itself and refuses one whose SQL it
 * does not show. SQL lives in such classes and in src/database only.
 */
export function SqlStore(): ClassDecorator {
  return (target) => {
    stores.add(target);
    Injectable()(target);
  };
}

/** Every class marked @SqlStore() among the modules loaded so far. */
export const sqlStores = (): StoreClass[] => [...stores];
