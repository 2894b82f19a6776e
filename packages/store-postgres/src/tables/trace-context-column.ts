/**
 * Rows read back keep `trace_context` only when they have one: the field is optional in
 * store spec v1, and a row written without it reads back as it was written (a NULL column
 * is left out rather than read as `null`).
 */
export function withTraceContext<Row extends { readonly trace_context?: string | null }>(
  rows: Row[],
): Row[] {
  for (const row of rows) {
    if (row.trace_context === null) delete (row as { trace_context?: string | null }).trace_context;
  }
  return rows;
}
