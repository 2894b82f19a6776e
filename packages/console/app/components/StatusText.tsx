// A run's status as text with a colour class (the word carries the meaning, not the colour).
import type { RunStatus } from '../api/types.js';

/** Props of {@link StatusText}. */
export interface StatusTextProps {
  status: RunStatus;
}

/** `waiting`, `completed`, … with a class per status. */
export function StatusText({ status }: StatusTextProps) {
  return <span class={`status status-${status}`}>{status}</span>;
}
