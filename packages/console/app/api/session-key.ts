// The API key a user pasted at sign-in: kept for this tab only (sessionStorage), never
// in a URL or a cookie, and sent only as `Authorization: Bearer`.

/** The sessionStorage entry holding the pasted API key. */
export const SESSION_KEY_NAME = 'programrun.console.key';

/** The stored key, or null (none stored, or storage unavailable). */
export function readSessionKey(): string | null {
  try {
    const key = sessionStorage.getItem(SESSION_KEY_NAME);
    return key === null || key === '' ? null : key;
  } catch {
    return null;
  }
}

/** Stores the key for this tab. */
export function storeSessionKey(key: string): void {
  sessionStorage.setItem(SESSION_KEY_NAME, key);
}

/** Forgets the key (sign out). */
export function forgetSessionKey(): void {
  try {
    sessionStorage.removeItem(SESSION_KEY_NAME);
  } catch {
    // Storage unavailable: nothing was stored.
  }
}
