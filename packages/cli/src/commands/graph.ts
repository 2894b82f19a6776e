import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, extname } from 'node:path';
import { scenarioMermaid, scenarioSvg } from '@programrun/dsl';
import { CommandFailure } from '../command.js';
import { parseOptions, stringOption } from '../parse-options.js';
import { loadValidFile } from '../scenarios/scenario-files.js';
import { UsageError } from '../usage-error.js';
import { formatOption } from './validate.js';
import { EXIT, type Output } from './verify.js';

const USAGE = 'usage: programrun graph <scenario.yaml> [--format mermaid|svg] [--out <file>]';

/**
 * `programrun graph <scenario.yaml>`: the stage and step diagram of a scenario, as
 * Mermaid text (default) or a standalone SVG, on stdout or into `--out` (whose `.svg`
 * extension picks SVG when `--format` is not given).
 *
 * @example
 * ```ts
 * await graphCommand(['scenarios/bank-payout@v1.yaml', '--format', 'svg', '--out', 'bank-payout.svg'], output);
 * ```
 */
export async function graphCommand(argv: readonly string[], output: Output): Promise<number> {
  const { values, positionals } = parseOptions(argv, {
    format: { type: 'string' },
    out: { type: 'string' },
    help: { type: 'boolean' },
  });
  if (values.help) {
    output.out(USAGE);
    return EXIT.ok;
  }
  if (positionals.length !== 1) throw new UsageError(USAGE);
  const out = stringOption(values, 'out');
  const format =
    values.format === undefined && out !== undefined && extname(out).toLowerCase() === '.svg'
      ? 'svg'
      : formatOption(values.format, ['mermaid', 'svg']);
  const loaded = await loadValidFile(positionals[0]!);
  const text = format === 'svg' ? scenarioSvg(loaded) : scenarioMermaid(loaded);
  if (out === undefined) {
    output.out(text.endsWith('\n') ? text.slice(0, -1) : text);
    return EXIT.ok;
  }
  try {
    await mkdir(dirname(out), { recursive: true });
    await writeFile(out, text.endsWith('\n') ? text : `${text}\n`);
  } catch (error) {
    throw new CommandFailure(
      `cannot write ${out}: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  output.out(`Wrote ${out} (${loaded.id}, ${format}, ${Buffer.byteLength(text)} bytes)`);
  return EXIT.ok;
}
