/**
 * The one place where the service reads what a database driver keeps to itself: each field here
 * has no public way to it. src/database/mysql2-internals.spec.ts pins each one on the installed
 * version, so that an upgrade that moves it fails there, not in production.
 */

/** A host's pool in a mysql2 pool cluster: what the service asks of it. */
export interface HostPool {
  on(event: string, listener: (...args: unknown[]) => void): void;
}

/**
 * The pool of each host of a mysql2 PoolCluster. The cluster forwards none of its hosts' pools'
 * events; 'connection' (a new connection, before its first use) is one of them, so its listeners
 * are added to each pool, which mysql2 keeps in `_nodes` (outside its types).
 */
export function hostPoolsOf(cluster: object): HostPool[] {
  const nodes = (cluster as { _nodes?: Record<string, { pool?: Partial<HostPool> }> })._nodes;
  const pools = Object.values(nodes ?? {}).map((node) => node.pool);
  if (!nodes || !pools.every((pool) => typeof pool?.on === 'function'))
    throw new Error(
      "mysql2's PoolCluster no longer keeps its hosts' pools in _nodes (src/database/mysql2-internals.ts)",
    );
  return pools as HostPool[];
}
