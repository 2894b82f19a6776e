// A command's real output against the blocks a guide shows after it: JSON documents (trimmed
// with `…`), HTTP heads from `curl -i`, and plain lines, in order.
import { parseShownJson } from './elided-json.js';
import { mismatches, normalize } from './match-shown.js';

/** A piece of a command's output: one JSON document, or one line of text. */
type Segment =
  | { readonly kind: 'json'; readonly value: unknown }
  | { readonly kind: 'line'; readonly text: string };

/** The end of the JSON value starting at `start` (an object or array), or -1. */
function jsonEnd(text: string, start: number): number {
  let depth = 0;
  let inString = false;
  for (let index = start; index < text.length; index += 1) {
    const character = text[index]!;
    if (inString) {
      if (character === '\\') index += 1;
      else if (character === '"') inString = false;
    } else if (character === '"') inString = true;
    else if (character === '{' || character === '[') depth += 1;
    else if (character === '}' || character === ']') {
      depth -= 1;
      if (depth === 0) return index + 1;
    }
  }
  return -1;
}

/** Splits output into JSON documents and the lines between them (blank lines dropped). */
export function segments(output: string): Segment[] {
  const result: Segment[] = [];
  let position = 0;
  while (position < output.length) {
    const character = output[position]!;
    if (/\s/.test(character)) {
      position += 1;
      continue;
    }
    if (character === '{' || character === '[') {
      const end = jsonEnd(output, position);
      if (end > 0) {
        try {
          result.push({ kind: 'json', value: JSON.parse(output.slice(position, end)) });
          position = end;
          continue;
        } catch {
          // Not JSON after all: read it as a line.
        }
      }
    }
    const lineEnd = output.indexOf('\n', position);
    const end = lineEnd < 0 ? output.length : lineEnd;
    result.push({ kind: 'line', text: output.slice(position, end).trimEnd() });
    position = end;
  }
  return result;
}

/** One block the guide shows: its language and text. */
export interface ShownBlock {
  readonly language: string;
  readonly code: string;
  /** Where it is, for messages: `file:line`. */
  readonly where: string;
}

const HEADER = /^([A-Za-z][A-Za-z0-9-]*):\s*(.*)$/;
/** Headers whose values are the same on every machine. */
const STABLE_HEADERS = new Set(['content-type', 'idempotent-replayed', 'original-request-id']);

/**
 * Checks that `output` holds, in order, everything the shown blocks show; returns the
 * problems (`[]` when it does).
 *
 * @example
 * ```ts
 * const problems = compareShown(stdout, [{ language: 'json', code: '{ "status": "waiting", … }', where: 'quick-start.md:120' }]);
 * ```
 */
export function compareShown(output: string, shown: readonly ShownBlock[]): string[] {
  const actual = segments(output);
  let cursor = 0;
  const problems: string[] = [];
  const nextJson = (where: string) => {
    while (cursor < actual.length && actual[cursor]!.kind !== 'json') cursor += 1;
    const segment = actual[cursor];
    cursor += 1;
    if (segment?.kind !== 'json') problems.push(`${where}: shows JSON the output does not have`);
    return segment?.kind === 'json' ? segment.value : undefined;
  };
  const matchJson = (text: string, where: string) => {
    const value = nextJson(where);
    if (value !== undefined)
      problems.push(...mismatches(parseShownJson(text), value).map((line) => `${where}: ${line}`));
  };
  /** The next line must be `expected`; after a `…` (skip), some lines may come first. */
  const nextLine = (expected: string, where: string, skip: boolean) => {
    const wanted = normalize(expected.trim());
    while (cursor < actual.length) {
      const segment = actual[cursor]!;
      cursor += 1;
      if (segment.kind === 'line' && normalize(segment.text.trim()) === wanted) return;
      if (!skip) {
        const got = segment.kind === 'line' ? segment.text : JSON.stringify(segment.value);
        problems.push(
          `${where}: shows the line ${JSON.stringify(expected.trim())}, got ${JSON.stringify(got.slice(0, 160))}`,
        );
        return;
      }
    }
    problems.push(`${where}: shows the line ${JSON.stringify(expected.trim())}, not in the output`);
  };

  for (const block of shown) {
    if (block.language === 'json') {
      matchJson(block.code, block.where);
      continue;
    }
    const lines = block.code.split('\n');
    if (/^HTTP\/\d/.test(lines[0] ?? '')) {
      // A `curl -i` head: the status line, then headers (stable values compared), then maybe a body.
      nextLine(lines[0]!, block.where, true);
      const head: Record<string, string> = {};
      while (cursor < actual.length && actual[cursor]!.kind === 'line') {
        const match = HEADER.exec((actual[cursor] as { text: string }).text);
        if (!match) break;
        head[match[1]!.toLowerCase()] = match[2]!;
        cursor += 1;
      }
      let index = 1;
      for (; index < lines.length && lines[index]!.trim() !== ''; index += 1) {
        const match = HEADER.exec(lines[index]!);
        if (!match) continue;
        const name = match[1]!.toLowerCase();
        if (!(name in head)) problems.push(`${block.where}: shows header ${name}, not sent`);
        else if (STABLE_HEADERS.has(name) && head[name] !== match[2])
          problems.push(`${block.where}: ${name} shown ${match[2]!}, sent ${head[name]!}`);
      }
      const body = lines.slice(index).join('\n').trim();
      if (body !== '') matchJson(body, block.where);
      continue;
    }
    // Plain lines: exactly these, in order; a `…` line stands for lines left out.
    let skip = false;
    for (const line of lines) {
      if (line.trim() === '') continue;
      if (line.trim() === '…') {
        skip = true;
        continue;
      }
      nextLine(line, block.where, skip);
      skip = false;
    }
  }
  return problems;
}
