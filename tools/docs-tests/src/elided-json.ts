// The JSON a guide shows as a command's output: real JSON, trimmed with `…` where the guide
// leaves content out. Parsed into a shape that says where content was left out, so a test
// can hold the real output to everything the guide does show.

/** A shown value: a scalar, or an object or array that may have been trimmed (`elided`). */
export type ShownValue =
  | { readonly kind: 'scalar'; readonly value: string | number | boolean | null }
  | {
      readonly kind: 'object';
      readonly entries: readonly (readonly [string, ShownValue])[];
      readonly elided: boolean;
    }
  | { readonly kind: 'array'; readonly items: readonly ShownValue[]; readonly elided: boolean };

const ELLIPSIS = '…';

class Reader {
  position = 0;
  constructor(readonly text: string) {}

  fail(message: string): never {
    const before = this.text.slice(0, this.position);
    const line = before.split('\n').length;
    throw new SyntaxError(`${message} at line ${line} of the shown output`);
  }

  skipSpace(): void {
    while (/\s/.test(this.text[this.position] ?? '')) this.position += 1;
  }

  peek(): string {
    this.skipSpace();
    return this.text[this.position] ?? '';
  }

  expect(character: string): void {
    if (this.peek() !== character) this.fail(`expected ${character}`);
    this.position += 1;
  }

  /** Skips commas and ellipses between members; true when an ellipsis was among them. */
  separators(): boolean {
    let elided = false;
    for (;;) {
      const next = this.peek();
      if (next === ',') this.position += 1;
      else if (next === ELLIPSIS) {
        elided = true;
        this.position += 1;
      } else return elided;
    }
  }

  value(): ShownValue {
    const next = this.peek();
    if (next === '{') return this.object();
    if (next === '[') return this.array();
    if (next === '"') return { kind: 'scalar', value: this.string() };
    const literal = /^(true|false|null|-?\d+(\.\d+)?([eE][+-]?\d+)?)/.exec(
      this.text.slice(this.position),
    );
    if (!literal) this.fail('expected a value');
    this.position += literal[0].length;
    return { kind: 'scalar', value: JSON.parse(literal[0]) as number | boolean | null };
  }

  string(): string {
    const match = /^"(?:[^"\\]|\\.)*"/.exec(this.text.slice(this.position));
    if (!match) this.fail('expected a string');
    this.position += match[0].length;
    return JSON.parse(match[0]) as string;
  }

  object(): ShownValue {
    this.expect('{');
    const entries: (readonly [string, ShownValue])[] = [];
    let elided = this.separators();
    while (this.peek() !== '}') {
      const key = this.string();
      this.expect(':');
      entries.push([key, this.value()]);
      elided = this.separators() || elided;
    }
    this.position += 1;
    return { kind: 'object', entries, elided };
  }

  array(): ShownValue {
    this.expect('[');
    const items: ShownValue[] = [];
    let elided = this.separators();
    while (this.peek() !== ']') {
      items.push(this.value());
      elided = this.separators() || elided;
    }
    this.position += 1;
    return { kind: 'array', items, elided };
  }
}

/**
 * Parses JSON as a guide shows it: `…` may stand for members of an object or items of an
 * array that were left out (an object or array holding one is `elided`).
 *
 * @example
 * ```ts
 * parseShownJson('{ "status": "waiting", … }'); // { kind: 'object', elided: true, … }
 * ```
 */
export function parseShownJson(text: string): ShownValue {
  const reader = new Reader(text);
  const value = reader.value();
  if (reader.peek() !== '') reader.fail('unexpected text after the value');
  return value;
}
