/**
 * The ECMAScript source of a parsed RE2 pattern, for matching (everything RE2 matches,
 * lookaround included) or for generating with fast-check (what its `stringMatching` can
 * read).
 */
import type { Assertion, Node } from './ast.js';
import { classSource } from './class-source.js';
import { escapeCodePoint, quantifier, type Mode } from './ecma-syntax.js';

const ASSERTIONS: Readonly<Record<Mode, Readonly<Record<Assertion, string>>>> = {
  match: {
    'begin-text': '^',
    'end-text': '$',
    // RE2's `(?m)` lines end at `\n` only; ECMAScript's `m` would also end them at `\r`.
    'begin-line': '(?<![^\\n])',
    'end-line': '(?![^\\n])',
    'word-boundary': '\\b',
    'not-word-boundary': '\\B',
  },
  // fast-check generates no lookaround or word boundary: a line anchor generates as a text
  // anchor (fewer strings, all matching), a word boundary as nothing (strings then
  // filtered by RE2).
  generate: {
    'begin-text': '^',
    'end-text': '$',
    'begin-line': '^',
    'end-line': '$',
    'word-boundary': '',
    'not-word-boundary': '',
  },
};

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;

export function source(node: Node, mode: Mode): string {
  switch (node.kind) {
    case 'empty':
      return '';
    case 'literal':
      return escapeCodePoint(node.codePoint, false);
    case 'class':
      return classSource(node, mode);
    case 'assertion':
      return ASSERTIONS[mode][node.assertion];
    case 'concat':
      return node.items.map((item) => source(item, mode)).join('');
    case 'alternate':
      return node.items.map((item) => source(item, mode)).join('|');
    case 'group': {
      const body = source(node.body, mode);
      // fast-check refuses an empty group; captures mean nothing to it.
      if (mode === 'generate') return body === '' ? '' : `(?:${body})`;
      if (!node.capture) return `(?:${body})`;
      return node.name !== undefined && IDENTIFIER.test(node.name)
        ? `(?<${node.name}>${body})`
        : `(${body})`;
    }
    case 'repeat': {
      const body = source(node.body, mode);
      if (mode === 'generate' && body === '') return '';
      const atom =
        node.body.kind === 'literal' || node.body.kind === 'class' || node.body.kind === 'group';
      const lazy = mode === 'match' && !node.greedy ? '?' : '';
      return `${atom ? body : `(?:${body})`}${quantifier(node.min, node.max)}${lazy}`;
    }
  }
}
