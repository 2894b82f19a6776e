// The mutation corpus: each file here is a realistic author mistake on a rare path of a
// catalogue scenario (scenarios/) or of the test-only merchant-refund@v1 (test/fixtures/),
// written as text replacements, with what must catch it: a property of checkScenario, a
// load problem code, or `never-selected` (a route alternative no valid input selects).
import { readdirSync, readFileSync } from 'node:fs';
import { parse } from 'yaml';

/** One seeded bug. */
export interface Mutant {
  /** The file name without `.yaml`. */
  readonly name: string;
  /** The scenario id mutated, e.g. `bank-payout@v1`. */
  readonly base: string;
  readonly mistake: string;
  /**
   * A property name (`money-conservation`), a load problem code (`hold_not_released`) or
   * `never-selected` (the check names a route alternative no valid input selects).
   */
  readonly caughtBy: string;
  /** The mutated scenario's YAML. */
  readonly text: string;
}

const HERE = new URL('./', import.meta.url);
const CATALOGUE = new URL('../../../../scenarios/', import.meta.url);
const FIXTURES = new URL('../fixtures/', import.meta.url);

/** The base scenario's YAML: the test fixture when there is one, else the catalogue's. */
export function baseText(base: string): string {
  const fixture = new URL(`${base}.yaml`, FIXTURES);
  try {
    return readFileSync(fixture, 'utf8');
  } catch {
    return readFileSync(new URL(`${base}.yaml`, CATALOGUE), 'utf8');
  }
}

/**
 * `text` with the block `find` replaced by `replacement`: `find` matches lines at any one
 * indentation (its own relative indentation kept), exactly once, and the replacement
 * takes that indentation.
 */
export function replaceBlock(text: string, find: string, replacement: string): string {
  const lines = text.split('\n');
  const wanted = find.replace(/\n$/, '').split('\n');
  const matches: { index: number; indent: string }[] = [];
  for (let index = 0; index + wanted.length <= lines.length; index += 1) {
    const first = lines[index]!;
    if (!first.endsWith(wanted[0]!)) continue;
    const indent = first.slice(0, first.length - wanted[0]!.length);
    if (indent.trim() !== '') continue;
    if (wanted.every((line, offset) => lines[index + offset] === indent + line))
      matches.push({ index, indent });
  }
  if (matches.length !== 1)
    throw new Error(`the block to replace occurs ${matches.length} times:\n${find}`);
  const { index, indent } = matches[0]!;
  const added = replacement === '' ? [] : replacement.replace(/\n$/, '').split('\n');
  lines.splice(index, wanted.length, ...added.map((line) => indent + line));
  return lines.join('\n');
}

interface MutantFile {
  readonly base: string;
  readonly mistake: string;
  readonly caught_by: string;
  readonly replace: readonly { readonly find: string; readonly with: string }[];
}

/** Every mutant of the corpus, in file name order. */
export function loadMutants(): Mutant[] {
  return readdirSync(HERE)
    .filter((file) => file.endsWith('.yaml'))
    .sort()
    .map((file) => {
      const spec = parse(readFileSync(new URL(file, HERE), 'utf8')) as MutantFile;
      const text = spec.replace.reduce(
        (current, step) => replaceBlock(current, step.find, step.with),
        baseText(spec.base),
      );
      return {
        name: file.replace(/\.yaml$/, ''),
        base: spec.base,
        mistake: spec.mistake,
        caughtBy: spec.caught_by,
        text,
      };
    });
}
