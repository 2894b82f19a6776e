// The short constraints shown next to a field of the "Create a test run" form.

const FORMATS: Readonly<Record<string, string>> = {
  money: 'an amount as text, e.g. 125.00',
  decimal: 'a decimal as text, e.g. 1.1500',
  date: 'a date, YYYY-MM-DD',
  'date-time': 'a date and time, RFC 3339',
  uuid: 'a UUID',
  email: 'an email address',
  'currency-code': 'an ISO 4217 currency code, e.g. EUR',
  'country-code': 'an ISO 3166 country code, e.g. DE',
};

/** Numeric keywords and how they read. */
const BOUNDS: readonly (readonly [string, (value: number) => string])[] = [
  ['minLength', (value) => `at least ${value} characters`],
  ['maxLength', (value) => `at most ${value} characters`],
  ['minimum', (value) => `≥ ${value}`],
  ['exclusiveMinimum', (value) => `> ${value}`],
  ['maximum', (value) => `≤ ${value}`],
  ['exclusiveMaximum', (value) => `< ${value}`],
  ['minItems', (value) => `at least ${value} items`],
  ['maxItems', (value) => `at most ${value} items`],
];

const text = (value: unknown): string =>
  typeof value === 'string' ? value : JSON.stringify(value);

/** The hints of a property schema: format, lengths, range, items, pattern, default. */
export function fieldHints(schema: Readonly<Record<string, unknown>>): string[] {
  const hints: string[] = [];
  if (typeof schema.format === 'string')
    hints.push(FORMATS[schema.format] ?? `format ${schema.format}`);
  for (const [keyword, words] of BOUNDS) {
    const value = schema[keyword];
    if (typeof value === 'number') hints.push(words(value));
  }
  if (typeof schema.pattern === 'string') hints.push(`pattern ${schema.pattern}`);
  if (schema.default !== undefined) hints.push(`default ${text(schema.default)}`);
  return hints;
}
