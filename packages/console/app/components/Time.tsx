// A timestamp as a <time> element: readable text, exact ISO value in `dateTime`.

/** Props of {@link Time}. */
export interface TimeProps {
  /** An ISO 8601 timestamp; null renders "—". */
  value: string | null;
}

/** `2025-01-02 10:00:05 UTC`-style text in the user's locale. */
export function formatTimestamp(value: string): string {
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return value;
  return date.toLocaleString(undefined, {
    year: 'numeric',
    month: 'short',
    day: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    timeZoneName: 'short',
  });
}

/** A timestamp. */
export function Time({ value }: TimeProps) {
  if (value === null) return <span>—</span>;
  return (
    <time dateTime={value} title={value}>
      {formatTimestamp(value)}
    </time>
  );
}
