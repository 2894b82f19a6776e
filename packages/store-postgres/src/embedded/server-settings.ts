// How the embedded server runs: durable (every commit's WAL flushed to disk before COMMIT
// returns), reachable only through a Unix socket in its own 0700 directory, or 127.0.0.1.

/** The role the store connects as (the cluster's superuser). */
export const SERVER_ROLE = 'postgres';
/** The database the store's schema lives in. */
export const SERVER_DATABASE = 'postgres';

/** Where the server listens. */
export type ServerEndpoint =
  | { readonly kind: 'socket'; readonly directory: string; readonly port: number }
  | { readonly kind: 'tcp'; readonly host: '127.0.0.1'; readonly port: number };

/**
 * The settings the server starts with, on its command line (they win over any
 * postgresql.conf). `fsync` and `synchronous_commit` are PostgreSQL's defaults, set here so
 * that no configuration file can turn them off; macOS needs `fsync_writethrough` for a
 * flush to reach the disk rather than its cache.
 */
export function serverSettings(
  endpoint: ServerEndpoint,
  maxConnections: number,
): Record<string, string> {
  return {
    listen_addresses: endpoint.kind === 'tcp' ? endpoint.host : '',
    unix_socket_directories: endpoint.kind === 'socket' ? endpoint.directory : '',
    port: String(endpoint.port),
    fsync: 'on',
    synchronous_commit: 'on',
    full_page_writes: 'on',
    ...(process.platform === 'darwin' ? { wal_sync_method: 'fsync_writethrough' } : {}),
    TimeZone: 'UTC',
    max_connections: String(maxConnections),
  };
}

/** `-c name=value` for each setting. */
export function settingFlags(settings: Record<string, string>): string[] {
  return Object.entries(settings).flatMap(([name, value]) => ['-c', `${name}=${value}`]);
}
