import { describe, expect, it } from 'vitest';
import { createEngine, createMemoryStore, type Scope } from '../../src/index.js';
import { expectEngineError } from '../expect-engine-error.js';

const scope: Scope = { account: 'acct_limits', environment: 'live' };

const engineWith = (webhooks = {}) =>
  createEngine({ store: createMemoryStore(), scenarios: [], webhooks });

describe('webhook endpoint limits', () => {
  it('allows 2 endpoints on one receiver URL per account and environment, then 422s', async () => {
    const engine = engineWith();
    const first = await engine.webhooks.createEndpoint(scope, {
      url: 'https://hooks.example.com/in',
      enabled_events: ['program_run.completed'],
    });
    await engine.webhooks.createEndpoint(scope, {
      url: 'https://hooks.example.com/in?second=1',
      enabled_events: ['program_run.created'],
    });
    // The same receiver however the URL is spelled: case, default port, another query.
    for (const url of [
      'https://hooks.example.com/in',
      'https://HOOKS.example.com:443/in',
      'https://hooks.example.com/in?third=1',
    ]) {
      const error = await expectEngineError(
        engine.webhooks.createEndpoint(scope, { url }),
        'webhook_endpoint_url_limit',
      );
      expect(error.issues).toEqual([
        expect.objectContaining({ pointer: '/url', code: 'url_limit' }),
      ]);
      expect(error.message).toContain(first.id);
    }
    // Another path, another account, another environment: other receivers.
    await engine.webhooks.createEndpoint(scope, { url: 'https://hooks.example.com/other' });
    await engine.webhooks.createEndpoint(
      { ...scope, account: 'acct_other' },
      { url: 'https://hooks.example.com/in' },
    );
    await engine.webhooks.createEndpoint(
      { ...scope, environment: 'test' },
      { url: 'https://hooks.example.com/in' },
    );
    expect(await engine.webhooks.listEndpoints(scope)).toHaveLength(3);
  });

  it('applies the URL limit when an endpoint moves, not when it keeps its URL', async () => {
    const engine = engineWith();
    await engine.webhooks.createEndpoint(scope, { url: 'https://hooks.example.com/in' });
    const second = await engine.webhooks.createEndpoint(scope, {
      url: 'https://hooks.example.com/in',
    });
    const third = await engine.webhooks.createEndpoint(scope, {
      url: 'https://hooks.example.com/elsewhere',
    });
    await expectEngineError(
      engine.webhooks.updateEndpoint(scope, third.id, { url: 'https://hooks.example.com/in' }),
      'webhook_endpoint_url_limit',
    );
    await engine.webhooks.updateEndpoint(scope, second.id, {
      url: 'https://hooks.example.com/in',
      description: 'same URL, other fields',
    });
    await engine.webhooks.updateEndpoint(scope, second.id, {
      url: 'https://hooks.example.com/moved',
    });
    await engine.webhooks.updateEndpoint(scope, third.id, { url: 'https://hooks.example.com/in' });
  });

  it('keeps the endpoint limit per account and environment, and both limits configurable', async () => {
    const engine = engineWith({ maxEndpoints: 3, maxEndpointsPerUrl: 3 });
    for (let index = 0; index < 3; index += 1)
      await engine.webhooks.createEndpoint(scope, { url: 'https://hooks.example.com/same' });
    await expectEngineError(
      engine.webhooks.createEndpoint(scope, { url: 'https://hooks.example.com/new' }),
      'webhook_endpoint_limit',
    );
    const defaults = engineWith();
    for (let index = 0; index < 16; index += 1)
      await defaults.webhooks.createEndpoint(scope, { url: `https://hooks.example.com/${index}` });
    await expectEngineError(
      defaults.webhooks.createEndpoint(scope, { url: 'https://hooks.example.com/16' }),
      'webhook_endpoint_limit',
    );
  });
});
