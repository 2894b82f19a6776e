import { z } from 'zod';
import type { JsonObject } from '@programrun/evidence';

/**
 * A `sha256:<64 lowercase hex digits>` digest (scenario digests, record hashes).
 */
export const sha256DigestSchema = z
  .templateLiteral(['sha256:', z.string().regex(/^[0-9a-f]{64}$/)])
  .meta({
    description: 'A sha-256 digest: `sha256:` and 64 lowercase hex digits.',
    examples: ['sha256:9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08'],
  });

/**
 * An RFC 3339 time in UTC as the engine writes it (`Date#toISOString()`).
 */
export const timestampSchema = z.iso.datetime().meta({ examples: ['2026-03-02T09:00:00.000Z'] });

/**
 * Any JSON object (run inputs, record data, scenario input schemas). JSON Schema has no
 * narrower "JSON values only" than `{}`, and a response is JSON by construction, so the
 * schema is an open object typed as the engine's {@link JsonObject}.
 */
export const jsonObjectSchema = z.looseObject({}) as unknown as z.ZodType<JsonObject>;

/**
 * A string starting with `prefix` (ids such as `prun_…`). zod's `startsWith` would render
 * as a non-standard `format: starts_with`; a pattern is plain JSON Schema.
 */
export function prefixedString(prefix: string) {
  return z.string().regex(new RegExp(`^${prefix.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
}

/**
 * The `{ object: 'list', url, data, has_more }` envelope every list answers with.
 */
export function listSchema<Item extends z.ZodType>(item: Item, url: z.ZodType<string>) {
  return z.object({
    object: z.literal('list'),
    url: url.meta({ description: 'The path this list was read from.' }),
    data: z.array(item),
    has_more: z
      .boolean()
      .meta({ description: 'Whether more items follow; page on with the last id or sequence.' }),
  });
}
