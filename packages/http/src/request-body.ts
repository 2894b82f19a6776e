import { parseStrictJson, StrictJsonError } from '@programrun/evidence';
import { isOversized, requestBodyBytes } from './body-cache.js';
import { HttpError } from './errors/http-error.js';
import { jsonValueProblems } from './json-value-problems.js';

/**
 * Default largest accepted body: 64 KiB.
 *
 * @example
 * ```ts
 * createNodeListener(handler, { maxBodyBytes: DEFAULT_MAX_BODY_BYTES * 2 });
 * ```
 */
export const DEFAULT_MAX_BODY_BYTES = 64 * 1024;

/**
 * Reads a JSON object body: `application/json` only, at most `maxBytes`, UTF-8, a JSON
 * object without duplicate keys (400 `duplicate_json_key`: parsers disagree on which value
 * wins, so a repeated key could mean different money to different readers), and without
 * text holding U+0000 or unpaired surrogates or numbers beyond ±(2^53 − 1) anywhere (422
 * `invalid_request`, a pointer to each). An empty body reads as `{}` when `allowEmpty`
 * (e.g. cancel).
 */
export async function readJsonBody(
  request: Request,
  options: { readonly maxBytes: number; readonly allowEmpty?: boolean },
): Promise<Record<string, unknown>> {
  const declared = Number(request.headers.get('content-length') ?? Number.NaN);
  if (isOversized(request) || declared > options.maxBytes) {
    throw new HttpError(
      'payload_too_large',
      `The body is larger than the limit of ${options.maxBytes} bytes.`,
    );
  }
  const bytes = await requestBodyBytes(request, options.maxBytes);
  if (bytes === 'too_large') {
    throw new HttpError(
      'payload_too_large',
      `The body is larger than the limit of ${options.maxBytes} bytes.`,
    );
  }
  if (bytes.byteLength === 0 && options.allowEmpty) return {};
  const contentType = request.headers.get('content-type') ?? '';
  const mediaType = contentType.split(';')[0]!.trim().toLowerCase();
  if (mediaType !== 'application/json' && !/^application\/[\w.-]+\+json$/.test(mediaType)) {
    throw new HttpError(
      'unsupported_media_type',
      `Content-Type must be application/json, not "${contentType || '(none)'}".`,
    );
  }
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new HttpError('malformed_json', 'The body is not valid UTF-8.');
  }
  let parsed: unknown;
  try {
    parsed = parseStrictJson(text);
  } catch (error) {
    if (error instanceof StrictJsonError && error.problem === 'duplicate_key') {
      // A repeated key is ambiguous (parsers keep the first or the last): refuse it.
      throw new HttpError(
        'duplicate_json_key',
        `The body names "${error.key}" twice in the object at ${error.pointer || '/'}.`,
        {
          errors: [
            {
              pointer: `${error.pointer}/${(error.key ?? '').replace(/~/g, '~0').replace(/\//g, '~1')}`,
              code: 'duplicate_json_key',
              message: 'appears more than once in its object',
            },
          ],
        },
      );
    }
    const reason = error instanceof Error ? error.message.replace(/^not JSON: /, '') : 'unreadable';
    throw new HttpError('malformed_json', `The body is not valid JSON: ${reason}.`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new HttpError('malformed_json', 'The body must be a JSON object.');
  }
  const problems = jsonValueProblems(parsed);
  if (problems.length > 0) {
    // Refused before anything reads them: no store, digest or log ever sees these values.
    throw new HttpError(
      'invalid_request',
      `The request body is invalid: ${problems.map((field) => `${field.pointer} ${field.message}`).join('; ')}.`,
      { errors: problems },
    );
  }
  return parsed as Record<string, unknown>;
}
