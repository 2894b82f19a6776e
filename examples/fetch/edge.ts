// programrun as a fetch handler with nothing from Node: the shape Cloudflare Workers, Deno
// Deploy and Vercel Edge run. The scenario is bundled in as text (no file system), the
// store is in memory, and one test key is registered. The repository's architecture tests
// bundle this file with esbuild and run it under edge-runtime, which has no Node built-ins.
import { compile, formatProblem, loadScenario } from '@programrun/dsl';
import { createAccounts, createEngine, createMemoryStore } from '@programrun/engine';
import { createHandler, type Handler } from '@programrun/http';
import walletDelivery from '../../scenarios/wallet-delivery@v1.yaml';

/** A fetch handler: what `export default` of a Worker or `Deno.serve` takes. */
export interface EdgeApp {
  fetch(this: void, request: Request): Promise<Response>;
}

async function handlerFor(testKey: string): Promise<Handler> {
  const loaded = loadScenario(walletDelivery, { file: 'wallet-delivery@v1.yaml' });
  if (!loaded.ok) throw new Error(loaded.problems.map(formatProblem).join('\n'));
  const store = createMemoryStore();
  const engine = createEngine({ store, scenarios: [compile(loaded.scenario)] });
  const accounts = createAccounts({ store });
  await accounts.apiKeys.register({ account: 'acct_edge', environment: 'test', secret: testKey });
  return createHandler({ engine, accounts });
}

/**
 * The app of a Worker or an edge function: built on its first request, then reused.
 *
 * @example
 * ```ts
 * export default edgeApp({ testKey: env.PROGRAMRUN_TEST_KEY }); // Cloudflare Workers
 * ```
 */
export function edgeApp(options: { readonly testKey: string }): EdgeApp {
  let handler: Promise<Handler> | undefined;
  return {
    async fetch(request) {
      handler ??= handlerFor(options.testKey);
      return (await handler).handle(request);
    },
  };
}
