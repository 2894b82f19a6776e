// The "Seconds" of "Advance by", checked before anything is sent: a whole number of
// seconds from 1 to a leap year's worth (what POST /v1/test_helpers/clock/advance accepts).

/** The most seconds one advance may move the test clock (366 days). */
export const MAX_ADVANCE_SECONDS = 366 * 24 * 3600;

/** The seconds typed, or why they cannot be sent. */
export type AdvanceSeconds =
  | { readonly ok: true; readonly seconds: number }
  | { readonly ok: false; readonly message: string };

/** Reads the "Seconds" textbox (surrounding spaces ignored; digits only). */
export function parseAdvanceSeconds(text: string): AdvanceSeconds {
  const trimmed = text.trim();
  const seconds = Number(trimmed);
  if (!/^\d+$/.test(trimmed) || seconds < 1 || seconds > MAX_ADVANCE_SECONDS) {
    return {
      ok: false,
      message: `Seconds must be a whole number from 1 to ${MAX_ADVANCE_SECONDS} (366 days).`,
    };
  }
  return { ok: true, seconds };
}
