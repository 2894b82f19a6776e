// programrun reference server: `programrun serve` (the engine mounted in a plain node:http
// server, see packages/cli/src/serve/reference-server.ts) on this repository's scenarios,
// keeping its data in <repo>/.programrun/data unless PROGRAMRUN_DATA_DIR says otherwise.
// Start it from the repository root with the README's first command, or here with `pnpm start`.
import { fileURLToPath } from 'node:url';
import { runCli } from '@programrun/cli';

const repository = (path: string) => fileURLToPath(new URL(`../../${path}`, import.meta.url));

process.exitCode = await runCli(
  ['serve', '--scenarios', repository('scenarios')],
  { out: (line) => console.log(line), err: (line) => console.error(line) },
  {
    environment: {
      ...process.env,
      PROGRAMRUN_DATA_DIR: process.env.PROGRAMRUN_DATA_DIR || repository('.programrun/data'),
    },
  },
);
