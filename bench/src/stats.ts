/** Median of a list of numbers. */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** Peak resident set size of this process so far, in MiB. */
export function peakRssMiB(): number {
  return Math.round(process.resourceUsage().maxRSS / 1024);
}

/** Formats a number with a thousands separator and `digits` decimals. */
export function format(value: number, digits = 0): string {
  return value.toLocaleString('en-US', {
    minimumFractionDigits: digits,
    maximumFractionDigits: digits,
  });
}
