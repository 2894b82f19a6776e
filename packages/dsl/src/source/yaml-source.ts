import { LineCounter, parseDocument, isScalar, type Document, type Node, type Scalar } from 'yaml';
import type { Problem, ProblemCode } from '../problem.js';
import { rawOffsetInQuoted } from './quoted-offset.js';

/** A position in the source: 1-based line and column. */
export interface SourcePosition {
  readonly line: number;
  readonly column: number;
}

type Path = readonly (string | number)[];

/**
 * A parsed YAML scenario that remembers where every value came from, so problems found
 * later (schema, references, CEL) can point at `line:column`.
 */
export class YamlSource {
  readonly file: string | undefined;
  readonly data: unknown;
  readonly syntaxProblems: readonly Problem[];
  readonly #document: Document;
  readonly #lines: LineCounter;
  readonly #text: string;

  constructor(text: string, file?: string) {
    this.file = file;
    this.#text = text;
    this.#lines = new LineCounter();
    this.#document = parseDocument(text, {
      lineCounter: this.#lines,
      uniqueKeys: true,
      prettyErrors: false,
    });
    this.syntaxProblems = this.#document.errors.map((error) => {
      const code: ProblemCode = error.code === 'DUPLICATE_KEY' ? 'duplicate_key' : 'yaml_syntax';
      const position = this.#position(error.pos[0]);
      const message =
        code === 'duplicate_key'
          ? 'key appears twice in the same mapping'
          : error.message.split('\n')[0]!;
      return this.#problem(code, message, [], position);
    });
    this.data =
      this.syntaxProblems.length === 0 ? this.#document.toJS({ maxAliasCount: 100 }) : undefined;
  }

  /** Position of the value at `path`, or of its nearest existing ancestor. */
  locate(path: Path): SourcePosition {
    const node = this.#nearestNode(path);
    return node?.range ? this.#position(node.range[0]) : { line: 1, column: 1 };
  }

  /** Position of the key of the entry at `path` (for "unknown field" and "duplicate id"). */
  locateKey(path: Path): SourcePosition {
    if (path.length === 0) return this.locate(path);
    const key = this.#keyNode(path);
    return key?.range ? this.#position(key.range[0]) : this.locate(path);
  }

  #keyNode(path: Path): Scalar | undefined {
    if (path.length === 0) return undefined;
    const parent = this.#document.getIn(path.slice(0, -1), true) as
      { items?: unknown[] } | undefined;
    const last = path.at(-1);
    const pair = parent?.items?.find(
      (item): item is { key: Scalar } =>
        typeof item === 'object' &&
        item !== null &&
        'key' in item &&
        isScalar(item.key) &&
        item.key.value === last,
    );
    return pair?.key;
  }

  /**
   * Position of character `offset` inside the string scalar at `path` (CEL error ranges),
   * accounting for quotes, escapes and block scalar indentation.
   */
  locateInScalar(path: Path, offset: number): SourcePosition {
    const node = this.#document.getIn(path, true);
    if (!isScalar(node) || !node.range || typeof node.value !== 'string') return this.locate(path);
    return this.#positionInScalar(node, offset);
  }

  /** Position of character `offset` inside the key of the entry at `path`. */
  locateInKey(path: Path, offset: number): SourcePosition {
    const key = this.#keyNode(path);
    if (!key?.range || typeof key.value !== 'string') return this.locateKey(path);
    return this.#positionInScalar(key, offset);
  }

  #positionInScalar(node: Scalar, offset: number): SourcePosition {
    const start = node.range![0];
    switch (node.type) {
      case 'QUOTE_DOUBLE':
      case 'QUOTE_SINGLE': {
        const raw = this.#text.slice(start + 1, node.range![1]);
        return this.#position(start + 1 + rawOffsetInQuoted(raw, offset, node.type));
      }
      case 'BLOCK_LITERAL':
      case 'BLOCK_FOLDED':
        return this.#positionInBlock(start, String(node.value), offset);
      default:
        return this.#position(start + offset);
    }
  }

  /** A problem positioned at `path`. */
  problemAt(code: ProblemCode, message: string, path: Path, position = this.locate(path)): Problem {
    return this.#problem(code, message, path, position);
  }

  #problem(code: ProblemCode, message: string, path: Path, position: SourcePosition): Problem {
    return {
      code,
      message,
      path: [...path],
      line: position.line,
      column: position.column,
      ...(this.file === undefined ? {} : { file: this.file }),
    };
  }

  #nearestNode(path: Path): Node | undefined {
    for (let length = path.length; length >= 0; length -= 1) {
      const node = this.#document.getIn(path.slice(0, length), true) as Node | undefined;
      if (node && typeof node === 'object' && 'range' in node) return node;
    }
    return this.#document.contents ?? undefined;
  }

  #position(offset: number): SourcePosition {
    const { line, col } = this.#lines.linePos(Math.min(offset, this.#text.length));
    return { line, column: col };
  }

  #positionInBlock(headerOffset: number, value: string, offset: number): SourcePosition {
    // Content starts on the line after the header (| or >), indented like its first line;
    // an offset at the very end (an EOF error) points at the last character instead.
    const header = this.#position(headerOffset);
    const clamped = Math.min(offset, Math.max(value.trimEnd().length - 1, 0));
    const before = value.slice(0, clamped).split('\n');
    const firstLine = this.#text.split('\n')[header.line] ?? '';
    const indent = firstLine.length - firstLine.trimStart().length;
    return { line: header.line + before.length, column: indent + 1 + (before.at(-1)?.length ?? 0) };
  }
}
