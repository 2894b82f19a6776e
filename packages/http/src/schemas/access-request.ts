import { z } from 'zod';
import { prefixedString, timestampSchema } from './common.js';

/**
 * The `access_request` object: a request-access lead linked to a client session.
 *
 * @example
 * ```ts
 * accessRequestRecordSchema.parse(await response.json()).id; // 'lead_…'
 * ```
 */
export const accessRequestRecordSchema = z
  .object({
    object: z.literal('access_request'),
    id: prefixedString('lead_').meta({ examples: ['lead_7Qa2bC3dE4fG5hI6jK7lM8nO'] }),
    session_id: z.string(),
    name: z.string(),
    email: z.string().meta({ format: 'email' }),
    company: z.string(),
    use_case: z.string(),
    livemode: z.boolean(),
    created_at: timestampSchema,
  })
  .meta({
    id: 'AccessRequestRecord',
    description:
      "A request-access lead. Linking one to a session lets that session's runs export evidence.",
  });
