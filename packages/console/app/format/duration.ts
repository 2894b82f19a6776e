// How long until (or since) a moment, as the Awaiting card shows it: "in 1m 20s".

/** `ms` as `1d 2h`, `1h 5m`, `1m 20s`, `45s` (two units at most). */
export function formatDuration(ms: number): string {
  const total = Math.floor(Math.abs(ms) / 1000);
  const days = Math.floor(total / 86_400);
  const hours = Math.floor((total % 86_400) / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = total % 60;
  if (days > 0) return hours > 0 ? `${days}d ${hours}h` : `${days}d`;
  if (hours > 0) return minutes > 0 ? `${hours}h ${minutes}m` : `${hours}h`;
  if (minutes > 0) return seconds > 0 ? `${minutes}m ${seconds}s` : `${minutes}m`;
  return `${seconds}s`;
}

/** `in 1m 20s` before `deadline`, `1m 20s ago` after it (`now` and `deadline` in ms). */
export function countdown(deadline: number, now: number): string {
  const left = deadline - now;
  if (Math.abs(left) < 1000) return 'now';
  return left > 0 ? `in ${formatDuration(left)}` : `${formatDuration(left)} ago`;
}
