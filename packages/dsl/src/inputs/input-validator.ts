import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import { re2RegExpEngine } from '../regex/ajv-regexp-engine.js';
import { regexRefusal } from '../regex/re2.js';
import { INPUT_FORMATS } from './formats.js';
import { valueAt } from './value-at.js';
import { schemaPatterns } from './schema-patterns.js';
import { STANDARD_FORMATS } from './standard-formats.js';

/** One problem with run inputs; `pointer` is relative to the inputs object (`/amount`). */
export interface InputIssue {
  readonly pointer: string;
  readonly code: 'missing_input' | 'unknown_input' | 'invalid_input';
  readonly message: string;
}

/** Validates run inputs against a scenario's input schema. */
export interface InputValidator {
  /** Every issue with `inputs`; empty when valid. */
  validate(inputs: unknown): InputIssue[];
}

function createAjv(): Ajv2020 {
  const ajv = new Ajv2020({
    allErrors: true,
    strict: true,
    strictRequired: false,
    allowUnionTypes: true,
    // `pattern` and `patternProperties` match on RE2: linear time, whatever the input.
    code: { regExp: re2RegExpEngine },
  });
  for (const [name, validate] of Object.entries(STANDARD_FORMATS)) {
    ajv.addFormat(name, { type: 'string', validate });
  }
  for (const [name, format] of Object.entries(INPUT_FORMATS)) {
    ajv.addFormat(name, { type: 'string', validate: format.validate });
  }
  ajv.addKeyword({ keyword: 'x-display', schemaType: 'object' });
  return ajv;
}

let sharedAjv: Ajv2020 | undefined;

const escapeToken = (token: string): string => token.replace(/~/g, '~0').replace(/\//g, '~1');

function toIssue(error: ErrorObject, inputs: unknown): InputIssue {
  const params = error.params as Record<string, unknown>;
  if (error.keyword === 'required') {
    return {
      pointer: `${error.instancePath}/${escapeToken(String(params.missingProperty))}`,
      code: 'missing_input',
      message: 'is required',
    };
  }
  if (error.keyword === 'additionalProperties') {
    return {
      pointer: `${error.instancePath}/${escapeToken(String(params.additionalProperty))}`,
      code: 'unknown_input',
      message: 'is not an input of this scenario',
    };
  }
  if (error.keyword === 'format') {
    const format = INPUT_FORMATS[String(params.format)];
    const value = valueAt(inputs, error.instancePath);
    return {
      pointer: error.instancePath,
      code: 'invalid_input',
      message:
        (typeof value === 'string' ? format?.explain?.(value) : undefined) ??
        format?.message ??
        `must be a valid ${String(params.format)}`,
    };
  }
  if (error.keyword === 'enum') {
    const allowed = (params.allowedValues as unknown[])
      .map((value) => JSON.stringify(value))
      .join(', ');
    return {
      pointer: error.instancePath,
      code: 'invalid_input',
      message: `must be one of ${allowed}`,
    };
  }
  return {
    pointer: error.instancePath,
    code: 'invalid_input',
    message: error.message ?? 'is invalid',
  };
}

/**
 * One issue per pointer and keyword, the later (a conditional branch's, more specific)
 * winning; `if/then/else` wrappers only repeat their inner error and are dropped.
 */
function toIssues(errors: readonly ErrorObject[], inputs: unknown): InputIssue[] {
  const byKey = new Map<string, InputIssue>();
  for (const error of errors) {
    if (error.keyword === 'if') continue;
    const issue = toIssue(error, inputs);
    const key = `${issue.pointer} ${error.keyword}`;
    byKey.delete(key);
    byKey.set(key, issue);
  }
  return [...byKey.values()];
}

/**
 * Thrown by {@link compileInputSchema} for a schema ajv refuses; `message` says why.
 *
 * @example
 * ```ts
 * try { compileInputSchema({ type: 'array' }); } catch (error) { (error as InputSchemaError).pointer; } // ''
 * ```
 */
export class InputSchemaError extends Error {
  /** JSON pointer inside the schema of the culprit, when known (e.g. `/properties/amount/type`). */
  readonly pointer: string;
  constructor(message: string, pointer = '') {
    super(message);
    this.pointer = pointer;
  }
}

/** The first meta-schema error, said plainly and located. */
function metaSchemaError(errors: readonly ErrorObject[]): InputSchemaError {
  const first = errors.find((error) => error.keyword === 'enum') ?? errors[0];
  if (!first) return new InputSchemaError('the input schema is not a valid JSON Schema');
  const params = first.params as { allowedValues?: unknown[] };
  const detail =
    first.keyword === 'enum' && params.allowedValues
      ? `must be one of ${params.allowedValues.map(String).join(', ')}`
      : (first.message ?? 'is invalid');
  return new InputSchemaError(`${first.instancePath || '(root)'} ${detail}`, first.instancePath);
}

/**
 * Compiles a scenario's input JSON Schema (draft 2020-12) with the programrun formats:
 * `money`, `decimal`, `evm-address` (EIP-55), `solana-address`, `public-chain-address`,
 * `iban`, `bic`, `currency-code`, `country-code`, plus date, date-time, email, uri, uuid.
 * Regular expressions (`pattern`, `patternProperties`, formats) use the RE2 dialect and
 * match in linear time; a pattern RE2 refuses (lookaround, backreferences) is an
 * {@link InputSchemaError} naming its place.
 *
 * @example
 * ```ts
 * const validator = compileInputSchema({ type: 'object', required: ['amount'],
 *   properties: { amount: { type: 'string', format: 'money' } } });
 * validator.validate({ amount: 10 }); // [{ pointer: '/amount', code: 'invalid_input', message: 'must be string' }]
 * ```
 */
export function compileInputSchema(schema: Readonly<Record<string, unknown>>): InputValidator {
  if (schema.type !== 'object')
    throw new InputSchemaError('the input schema must have type: object at its root');
  sharedAjv ??= createAjv();
  if (!sharedAjv.validateSchema(schema)) throw metaSchemaError(sharedAjv.errors ?? []);
  for (const { pattern, path } of schemaPatterns(schema)) {
    const refusal = regexRefusal(pattern);
    const pointer = path.map((segment) => `/${escapeToken(String(segment))}`).join('');
    if (refusal)
      throw new InputSchemaError(
        `${pointer} ${JSON.stringify(pattern)} ${refusal.message}`,
        pointer,
      );
  }
  let validateFunction: ValidateFunction;
  try {
    validateFunction = sharedAjv.compile(schema);
  } catch (error) {
    // Strict-mode errors name their place as `at "#/then/properties/x"`.
    const message = error instanceof Error ? error.message : String(error);
    const place = /at "#([^"]*)"/.exec(message)?.[1] ?? '';
    throw new InputSchemaError(message, place);
  }
  return {
    validate(inputs: unknown): InputIssue[] {
      if (validateFunction(inputs)) return [];
      return toIssues(validateFunction.errors ?? [], inputs);
    },
  };
}
