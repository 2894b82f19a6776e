// A guide as a walkthrough: its shell blocks in order, each with the output blocks the guide
// shows after it (JSON and text, up to the next shell block).
import { relative } from 'node:path';
import { codeBlocks, repositoryFile, type CodeBlock } from './markdown-blocks.js';
import type { ShownBlock } from './shown-output.js';

/** One shell block and what the guide shows it prints. */
export interface WalkthroughStep {
  readonly block: CodeBlock;
  /** `run`, `server` (the test starts that server itself) or `skip`, from the block's directive. */
  readonly role: 'run' | 'server' | 'skip';
  readonly shown: readonly ShownBlock[];
  /** `file:line`, for messages. */
  readonly where: string;
}

/**
 * The shell steps of a guide (`sh` blocks), with their shown outputs.
 *
 * @example
 * ```ts
 * const steps = walkthrough('docs/guides/quick-start.md').filter((step) => step.role === 'run');
 * ```
 */
export function walkthrough(guide: string): WalkthroughStep[] {
  const file = repositoryFile(guide);
  const name = relative(repositoryFile('.'), file);
  const steps: WalkthroughStep[] = [];
  for (const block of codeBlocks(file)) {
    if (block.language === 'sh') {
      const directive = block.directive?.split(/\s/)[0] ?? 'run';
      if (directive !== 'run' && directive !== 'server' && directive !== 'skip')
        throw new Error(`${name}:${block.line}: unknown docs-test directive "${directive}"`);
      steps.push({ block, role: directive, shown: [], where: `${name}:${block.line}` });
    } else if ((block.language === 'json' || block.language === 'text') && steps.length > 0) {
      (steps.at(-1)!.shown as ShownBlock[]).push({
        language: block.language,
        code: block.code,
        where: `${name}:${block.line}`,
      });
    }
  }
  return steps;
}
