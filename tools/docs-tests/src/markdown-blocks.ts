// Code blocks of a Markdown document, in order, with what a test needs to run them: the
// language, the section they stand in, their line, and the directive of an HTML comment
// right before them (`<!-- docs-test: … -->`, invisible on GitHub).
import { readFileSync } from 'node:fs';
import { Lexer, type Token, type Tokens } from 'marked';

/** One fenced code block. */
export interface CodeBlock {
  /** The info string's first word (`sh`, `ts`, `json`, `text`), or '' without one. */
  readonly language: string;
  readonly code: string;
  /** The nearest heading above the block. */
  readonly section: string;
  /** 1-based line of the opening fence. */
  readonly line: number;
  /** The text of a `<!-- docs-test: … -->` comment right before the block, if any. */
  readonly directive: string | null;
}

const DIRECTIVE = /^<!--\s*docs-test:\s*([\s\S]*?)\s*-->\s*$/;

/**
 * The fenced code blocks of a Markdown file.
 *
 * @example
 * ```ts
 * const shell = codeBlocks('docs/guides/quick-start.md').filter((block) => block.language === 'sh');
 * ```
 */
export function codeBlocks(file: string): CodeBlock[] {
  const text = readFileSync(file, 'utf8');
  const tokens: Token[] = Lexer.lex(text);
  const blocks: CodeBlock[] = [];
  let section = '';
  let offset = 0;
  let directive: string | null = null;
  for (const token of tokens) {
    const line = text.slice(0, offset).split('\n').length;
    offset += token.raw.length;
    if (token.type === 'heading') {
      section = (token as Tokens.Heading).text;
      directive = null;
    } else if (token.type === 'html') {
      directive = DIRECTIVE.exec(token.raw.trim())?.[1] ?? directive;
    } else if (token.type === 'code') {
      const code = token as Tokens.Code;
      blocks.push({
        language: (code.lang ?? '').split(/\s+/)[0] ?? '',
        code: code.text,
        section,
        line,
        directive,
      });
      directive = null;
    } else if (token.type !== 'space') {
      directive = null;
    }
  }
  return blocks;
}

/** The repository root. */
export const REPOSITORY = new URL('../../../', import.meta.url);

/**
 * A file of the repository as a path.
 *
 * @example
 * ```ts
 * repositoryFile('docs/guides/embedding.md');
 * ```
 */
export const repositoryFile = (path: string): string => new URL(path, REPOSITORY).pathname;
