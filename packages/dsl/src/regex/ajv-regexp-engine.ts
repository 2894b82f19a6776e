import type { CodeOptions } from 'ajv/dist/2020.js';
import { compileRegex } from './re2.js';

type RegExpEngine = NonNullable<CodeOptions['regExp']>;

/**
 * Ajv's `code.regExp` engine on RE2: `pattern` and `patternProperties` of input schemas
 * match in linear time. Ajv keys compiled patterns by `toString()`, so each answers its
 * own pattern. The unicode flag Ajv passes is implied: RE2 always matches code points.
 */
export const re2RegExpEngine: RegExpEngine = Object.assign(
  (pattern: string) => {
    const compiled = compileRegex(pattern);
    return { test: (text: string) => compiled.test(text), toString: () => `re2:${pattern}` };
  },
  { code: 're2' },
);
