import type { Scope } from '../store/store-v1.js';
import type { WebhookEndpointRow } from '../store/webhook-spec.js';
import { checkEndpointLimits } from './endpoint-limits.js';
import { disableEndpoint, loadEndpoint } from './endpoint-rows.js';
import {
  rotationOverlapSeconds,
  validateEndpointFields,
  type CreateWebhookEndpointInput,
  type UpdateWebhookEndpointInput,
} from './endpoint-input.js';
import {
  toWebhookEndpointRecord,
  type WebhookEndpointRecord,
  type WebhookEndpointWithSecret,
} from './webhook-records.js';
import { generateWebhookSecret } from './webhook-secret.js';
import { sealEndpoint } from './sealed-endpoint.js';
import type { WebhooksContext } from './webhooks-context.js';

/** Registering, changing and removing webhook endpoints, and rotating their secrets. */
export interface WebhookEndpoints {
  createEndpoint(
    scope: Scope,
    input: CreateWebhookEndpointInput,
  ): Promise<WebhookEndpointWithSecret>;
  listEndpoints(scope: Scope): Promise<WebhookEndpointRecord[]>;
  getEndpoint(scope: Scope, id: string): Promise<WebhookEndpointRecord>;
  updateEndpoint(
    scope: Scope,
    id: string,
    input: UpdateWebhookEndpointInput,
  ): Promise<WebhookEndpointRecord>;
  /** Removes an endpoint; deliveries still owed to it are cancelled. */
  deleteEndpoint(scope: Scope, id: string): Promise<WebhookEndpointRecord>;
  /**
   * Makes a new signing secret; the previous ones keep signing (every delivery carries
   * one signature per valid secret) for `overlap_seconds` (default 24 h, at most 7 days).
   */
  rotateSecret(
    scope: Scope,
    id: string,
    input?: { readonly overlap_seconds?: number | undefined },
  ): Promise<WebhookEndpointWithSecret>;
}

/**
 * The endpoints of an engine's webhooks.
 */
export function createWebhookEndpoints(context: WebhooksContext): WebhookEndpoints {
  const { engine, allowLoopback, limits, secretBox } = context;
  const { transactions, liveClock: clock, ids } = engine;
  return {
    async createEndpoint(scope, input) {
      const fields = validateEndpointFields(
        {
          url: input.url ?? '',
          enabled_events: input.enabled_events ?? ['*'],
          description: input.description ?? null,
        },
        { environment: scope.environment, allowLoopback },
      );
      const secret = generateWebhookSecret();
      const at = clock.now();
      const row = await transactions.run(async ({ tx }) => {
        checkEndpointLimits(limits, scope, await tx.listWebhookEndpoints(scope), fields.url!);
        const endpoint: WebhookEndpointRow = {
          id: ids.webhookEndpoint(),
          account: scope.account,
          environment: scope.environment,
          url: fields.url!,
          description: fields.description ?? null,
          enabled_events: fields.enabled_events!,
          status: 'enabled',
          disabled_reason: null,
          disabled_at: null,
          secrets: [{ secret, created_at: at.toISOString(), expires_at: null }],
          failing_since: null,
          disabled_count: 0,
          created_at: at.toISOString(),
          updated_at: at.toISOString(),
        };
        await tx.insertWebhookEndpoint(await sealEndpoint(secretBox, endpoint));
        return endpoint;
      });
      return { ...toWebhookEndpointRecord(row, at), secret };
    },

    async listEndpoints(scope) {
      const now = clock.now();
      const rows = await transactions.run(({ tx }) => tx.listWebhookEndpoints(scope));
      return rows.map((row) => toWebhookEndpointRecord(row, now));
    },

    async getEndpoint(scope, id) {
      const row = await transactions.run(({ tx }) => loadEndpoint(tx, scope, id));
      return toWebhookEndpointRecord(row, clock.now());
    },

    async updateEndpoint(scope, id, input) {
      const fields = validateEndpointFields(input, {
        environment: scope.environment,
        allowLoopback,
      });
      const now = clock.now();
      const row = await transactions.run(async (transaction) => {
        const { tx } = transaction;
        const endpoint = await loadEndpoint(tx, scope, id);
        if (fields.url !== undefined && fields.url !== endpoint.url)
          checkEndpointLimits(limits, scope, await tx.listWebhookEndpoints(scope), fields.url, id);
        let updated: WebhookEndpointRow = { ...endpoint, ...fields, updated_at: now.toISOString() };
        if (input.status === 'enabled' && endpoint.status === 'disabled') {
          updated = {
            ...updated,
            status: 'enabled',
            disabled_reason: null,
            disabled_at: null,
            failing_since: null,
          };
        }
        await tx.updateWebhookEndpoint(await sealEndpoint(secretBox, updated));
        if (input.status === 'disabled' && endpoint.status === 'enabled') {
          await disableEndpoint(context, transaction, scope, updated, 'requested', null);
          return (await tx.getWebhookEndpoint(scope, id))!;
        }
        return updated;
      });
      return toWebhookEndpointRecord(row, now);
    },

    async deleteEndpoint(scope, id) {
      const row = await transactions.run(async ({ tx }) => {
        const endpoint = await loadEndpoint(tx, scope, id);
        await tx.deleteWebhookEndpoint(scope, id);
        return endpoint;
      });
      return toWebhookEndpointRecord(row, clock.now());
    },

    async rotateSecret(scope, id, input = {}) {
      const overlap = rotationOverlapSeconds(input.overlap_seconds);
      const secret = generateWebhookSecret();
      const now = clock.now();
      const at = now.toISOString();
      const until = new Date(now.getTime() + overlap * 1000).toISOString();
      const row = await transactions.run(async ({ tx }) => {
        const endpoint = await loadEndpoint(tx, scope, id);
        const kept = endpoint.secrets
          .map((old) => ({
            ...old,
            expires_at: old.expires_at === null || old.expires_at > until ? until : old.expires_at,
          }))
          .filter((old) => old.expires_at > at);
        const rotated: WebhookEndpointRow = {
          ...endpoint,
          secrets: [{ secret, created_at: at, expires_at: null }, ...kept],
          updated_at: at,
        };
        await tx.updateWebhookEndpoint(await sealEndpoint(secretBox, rotated));
        return rotated;
      });
      return { ...toWebhookEndpointRecord(row, now), secret };
    },
  };
}
