import { describeExample } from '@programrun/example-shared/example-test';

// Boots server.ts on a free port and drives it over HTTP: its own route, a run, a problem.
describeExample('fetch handler', import.meta.url);
