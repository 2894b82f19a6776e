// A development server's own secrets (its test API key and evidence signing key), kept in
// its data directory (embedded PostgreSQL or PGlite) so they survive restarts along with the
// runs they unlock and sign.
// A development convenience: production hosts keep keys in their secret manager.
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * The secret stored at `<dataDir>/<name>`, or the one `create` makes (written with mode
 * 0600 before it is used). Without a data directory (memory store) it is never kept.
 */
export async function keptSecret(
  dataDir: string | null,
  name: string,
  create: () => string,
): Promise<{ readonly value: string; readonly kept: 'new' | 'reused' | 'not_kept' }> {
  if (dataDir === null) return { value: create(), kept: 'not_kept' };
  const path = join(dataDir, name);
  const existing = await readFile(path, 'utf8').catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return undefined;
    throw error;
  });
  if (existing !== undefined && existing.trim() !== '') {
    return { value: existing.trim(), kept: 'reused' };
  }
  const value = create();
  await mkdir(dataDir, { recursive: true });
  await writeFile(path, `${value}\n`, { mode: 0o600 });
  return { value, kept: 'new' };
}
