import { EXPRESSION_BUDGET } from '@programrun/dsl';
import { LIFECYCLE_EVENT_TYPES } from '@programrun/engine';
import { ERROR_CATALOGUE } from './errors/error-catalogue.js';

const escapeCell = (text: string): string => text.replace(/\|/g, '\\|');

/**
 * The error catalogue as Markdown (`docs/reference/errors.md`), generated from
 * {@link ERROR_CATALOGUE} so the documentation cannot drift from the code.
 *
 * @example
 * ```ts
 * await writeFile('docs/reference/errors.md', errorCatalogueMarkdown());
 * ```
 */
export function errorCatalogueMarkdown(): string {
  const rows = Object.entries(ERROR_CATALOGUE)
    .sort(([, a], [, b]) => a.status - b.status)
    .map(
      ([code, entry]) =>
        `| \`${code}\` | ${entry.status} | ${escapeCell(entry.title)} | ${escapeCell(entry.action)} |`,
    );
  return `<!-- Generated from packages/http/src/errors/error-catalogue.ts by \`pnpm --filter @programrun/http generate:reference\`; do not edit. -->
# Error catalogue

Every error is an RFC 9457 \`application/problem+json\` document:

\`\`\`json
{
  "type": "https://programrun.dev/problems/invalid_inputs",
  "title": "Inputs do not match the scenario",
  "status": 422,
  "detail": "The inputs do not match wallet-delivery@v1: /inputs/amount must be a positive amount with exactly two fraction digits, as a string, e.g. \\"125.00\\".",
  "code": "invalid_inputs",
  "request_id": "req_…",
  "errors": [{ "pointer": "/inputs/amount", "code": "invalid_input", "message": "must be a positive amount …" }]
}
\`\`\`

\`code\` is stable; \`errors\` holds JSON pointers (RFC 6901) into the request body or query.
Every response, success or error, carries a \`Request-Id\` header equal to \`request_id\`;
a replay of a stored response (\`Idempotent-Replayed: true\`) also carries \`Original-Request-Id\`, the
id of the request that produced it (and the \`request_id\` inside a replayed problem).
Unexpected failures answer \`internal_error\` without details; nothing echoes secrets or stack traces.

| Code | HTTP | Meaning | What to do |
| --- | --- | --- | --- |
${rows.join('\n')}

## Codes that are not HTTP errors

A scenario that does not load never reaches the API. Its problems, printed as
\`file:line:column: code message\`, are listed in
[Writing scenarios](../guides/writing-scenarios.md#problems); among them
\`unsupported_regex\` (a regular expression outside the RE2 dialect: lookaround,
backreferences), \`unbounded_expression\` (nested comprehensions over input lists
without \`maxItems\`) and \`expression_budget_exceeded\` (an expression whose worst case
exceeds the evaluation budget).

A run that fails is still answered with its run record: \`status: faulted\` and
\`outcome.reason\`, also recorded in \`program_run.faulted\` ([events](events.md)). The
reason \`expression_budget_exceeded\` means an expression took more than
${EXPRESSION_BUDGET.toLocaleString('en-US')} evaluation steps and was stopped
([the evaluation budget](../guides/writing-scenarios.md#the-evaluation-budget)): fix the
scenario, or the inputs that made it costly.
`;
}

/**
 * The lifecycle event catalogue as Markdown (`docs/reference/lifecycle-events.md`).
 *
 * @example
 * ```ts
 * await writeFile('docs/reference/lifecycle-events.md', lifecycleEventsMarkdown());
 * ```
 */
export function lifecycleEventsMarkdown(): string {
  const rows = Object.entries(LIFECYCLE_EVENT_TYPES).map(
    ([type, meaning]) => `| \`${type}\` | ${escapeCell(meaning)} |`,
  );
  return `<!-- Generated from packages/engine/src/lifecycle/event-types.ts by \`pnpm --filter @programrun/http generate:reference\`; do not edit. -->
# Lifecycle records

Lifecycle records are the single source of truth of a run: \`GET /v1/program-runs/{id}/events\`
lists them, and webhook events and evidence bundles are views of them. Each record:

| Field | Meaning |
| --- | --- |
| \`id\` | \`evt_\` + 32 hex digits of sha-256 over \`<run id>:<sequence>\`: deterministic, so redeliveries keep it |
| \`run_id\` | The run |
| \`sequence\` | 1-based, contiguous per run |
| \`type\` | One of the types below |
| \`stage\`, \`step\` | Where in the scenario it happened (null when not applicable) |
| \`created\` | ISO 8601 time on the run's environment clock (the test clock in test) |
| \`data\` | Type-specific facts (decisions, partner references, requests, route alternatives…) |
| \`prev\` | \`hash\` of the previous record, \`null\` for the first |
| \`hash\` | \`sha256:\` + hex of sha-256 over the RFC 8785 canonical JSON of the record without \`hash\` |

The run record's \`evidence.chain_head\` is the \`hash\` of the last record: verify a run's
history by recomputing every hash, checking each \`prev\`, contiguous sequences and the head.

| Type | Meaning |
| --- | --- |
${rows.join('\n')}
`;
}
