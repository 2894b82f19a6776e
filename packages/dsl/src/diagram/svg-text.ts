/**
 * Font size of node text, in px.
 */
export const FONT_SIZE = 12;
/**
 * Height of one line of node text, in px.
 */
export const LINE_HEIGHT = 15;
/** Characters per line before a node title wraps. */
const WRAP_AT = 26;

/** True for characters XML 1.0 allows: tab, newlines and everything from space on but U+FFFE/F. */
function allowedInXml(character: string): boolean {
  const code = character.codePointAt(0)!;
  return code >= 0x20
    ? code !== 0xfffe && code !== 0xffff
    : code === 9 || code === 10 || code === 13;
}

/**
 * Text as XML character data or an attribute value: `& < > " '` escaped, characters XML
 * 1.0 forbids (controls other than tab and newlines) dropped, lone surrogates replaced.
 */
export function escapeXml(text: string): string {
  return Array.from(text.toWellFormed())
    .filter(allowedInXml)
    .join('')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}

/**
 * Estimated width in px of `text` at {@link FONT_SIZE}, without a browser: an average
 * glyph advance, wider for capitals and digits. Deterministic, generous enough for
 * common sans-serif fonts.
 */
export function textWidth(text: string): number {
  let width = 0;
  for (const character of text) {
    if (/[A-Z0-9@#%&mwMW]/.test(character)) width += 8.5;
    else if (/[iljtf.,:;'!| ]/.test(character)) width += 4;
    else width += 6.75;
  }
  return Math.ceil(width);
}

/**
 * Words of `text` wrapped into lines of at most {@link WRAP_AT} characters (a longer
 * word gets a line of its own).
 */
export function wrapText(text: string): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/).filter((part) => part !== '')) {
    if (line !== '' && line.length + 1 + word.length > WRAP_AT) {
      lines.push(line);
      line = word;
    } else {
      line = line === '' ? word : `${line} ${word}`;
    }
  }
  if (line !== '' || lines.length === 0) lines.push(line);
  return lines;
}

/**
 * A coordinate as SVG text: one decimal at most, no `-0`.
 */
export function formatNumber(value: number): string {
  const rounded = Math.round(value * 10) / 10;
  return Object.is(rounded, -0) ? '0' : String(rounded);
}
