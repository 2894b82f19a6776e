import { AUTH_SCOPES } from '@programrun/engine';
import { z } from 'zod';

/**
 * The `principal` object `GET /v1/principal` answers with: who the credential is, never
 * its secret.
 *
 * @example
 * ```ts
 * const principal = principalSchema.parse(await (await fetch(`${base}/v1/principal`, { headers })).json());
 * if (principal.scopes.includes('runs:write')) console.log('may create runs');
 * ```
 */
export const principalSchema = z
  .object({
    object: z.literal('principal'),
    account: z.string().meta({ examples: ['acct_demo'] }),
    environment: z.enum(['test', 'live']),
    livemode: z.boolean().meta({ description: 'True for the live environment.' }),
    actor: z.string().meta({
      description:
        'Who acts with this credential: what approvals count and evidence names (the key id unless the key was given an actor).',
      examples: ['ops:ana'],
    }),
    credential_id: z.string().meta({
      description:
        'A stable id of the credential (the API key id, `key_…`, or the host’s own token or session id); never the secret.',
      examples: ['key_4f1c2d3e4f5a6b7c8d9e0f1a'],
    }),
    scopes: z.array(z.string()).meta({
      description: `What the credential may do: ${AUTH_SCOPES.map((scope) => `\`${scope}\``).join(', ')}, or the party-limited \`approvals:decide:<party>\` and \`handoffs:answer:<party>\`.`,
      examples: [['runs:read', 'runs:write', 'approvals:decide:ops']],
    }),
  })
  .meta({ id: 'Principal', description: 'The authenticated caller.' });
