// GET /v1/principal: who the credential is, for built-in keys and a host's own principals,
// whatever its scopes, and never the secret.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUTH_SCOPES } from '@programrun/engine';
import { createHandler, type AuthenticatedCaller } from '../src/index.js';
import { keyFor } from './actors.js';
import { LIVE_KEY, startTestServer, TEST_KEY, type TestServer } from './harness.js';
import { checkResponseAgainstOpenApi } from './openapi-conformance.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer('node');
});
afterAll(async () => {
  await server.close();
});

const principalOf = async (key: string | null) => {
  const response = await server.request('GET', '/v1/principal', { key });
  return { response, text: await response.text() };
};

describe('GET /v1/principal', () => {
  it('answers the key’s account, environment, actor, id and scopes, never its secret', async () => {
    const { secret, id } = await keyFor(server, 'ops:ana', ['runs:read', 'approvals:decide:ops']);
    const { response, text } = await principalOf(secret);
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(JSON.parse(text)).toEqual({
      object: 'principal',
      account: 'acct_one',
      environment: 'test',
      livemode: false,
      actor: 'ops:ana',
      credential_id: id,
      scopes: ['runs:read', 'approvals:decide:ops'],
    });
    expect(text).not.toContain(secret);
    expect(text).not.toContain(secret.slice(8, 20));
  });

  it('needs no scope: a key with a single unrelated scope reads itself', async () => {
    const { secret } = await keyFor(server, 'hooks', ['webhooks:manage']);
    const { response, text } = await principalOf(secret);
    expect(response.status).toBe(200);
    expect(JSON.parse(text)).toMatchObject({ scopes: ['webhooks:manage'], actor: 'hooks' });
  });

  it('names the live environment and every scope of a default key', async () => {
    const { text } = await principalOf(LIVE_KEY);
    expect(JSON.parse(text)).toMatchObject({
      environment: 'live',
      livemode: true,
      scopes: [...AUTH_SCOPES],
    });
    expect(text).not.toContain(LIVE_KEY);
    expect(JSON.parse((await principalOf(TEST_KEY)).text)).toMatchObject({ livemode: false });
  });

  it('is 401 without credentials', async () => {
    const { response, text } = await principalOf(null);
    expect(response.status).toBe(401);
    expect(JSON.parse(text)).toMatchObject({ code: 'unauthorized' });
  });

  it('answers a host authenticate hook’s principal: its actor and scopes, or the defaults', async () => {
    const callers: Record<string, AuthenticatedCaller> = {
      session: {
        account: 'acct_host',
        environment: 'test',
        credentialId: 'sess_cookie_42',
        actor: 'ops:bea',
        scopes: ['runs:read', 'handoffs:answer:custodian'],
      },
      bare: { account: 'acct_host', environment: 'live', credentialId: 'tok_9' },
    };
    const handler = createHandler({
      engine: server.engine,
      authenticate: (request) => callers[request.headers.get('x-session') ?? ''] ?? null,
    });
    const read = async (session: string) => {
      const response = await handler.handle(
        new Request('http://localhost/v1/principal', { headers: { 'x-session': session } }),
      );
      const text = await response.text();
      expect(
        checkResponseAgainstOpenApi('GET', '/v1/principal', {
          status: response.status,
          headers: response.headers,
          bodyText: text,
        }),
      ).toEqual([]);
      return { status: response.status, body: JSON.parse(text) as Record<string, unknown> };
    };
    expect(await read('session')).toEqual({
      status: 200,
      body: {
        object: 'principal',
        account: 'acct_host',
        environment: 'test',
        livemode: false,
        actor: 'ops:bea',
        credential_id: 'sess_cookie_42',
        scopes: ['runs:read', 'handoffs:answer:custodian'],
      },
    });
    expect(await read('bare')).toEqual({
      status: 200,
      body: {
        object: 'principal',
        account: 'acct_host',
        environment: 'live',
        livemode: true,
        actor: 'tok_9',
        credential_id: 'tok_9',
        scopes: [...AUTH_SCOPES],
      },
    });
    expect((await read('nobody')).status).toBe(401);
  });
});
