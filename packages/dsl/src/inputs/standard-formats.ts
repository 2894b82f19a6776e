import { compileRegex } from '../regex/re2.js';

// The standard formats of input schemas, with ajv-formats' "full" semantics, matched on
// RE2 so no input can make them slow. Patterns adapted from ajv-formats 3.0.1 (MIT,
// https://github.com/ajv-validator/ajv-formats), written in the RE2 dialect.

const DATE = '^(\\d\\d\\d\\d)-(\\d\\d)-(\\d\\d)$';
const TIME = '(?i)^(\\d\\d):(\\d\\d):(\\d\\d(?:\\.\\d+)?)(z|([+-])(\\d\\d)(?::?(\\d\\d))?)?$';
const DATE_TIME_SEPARATOR = '(?i)t|\\s';
const DAYS = [0, 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
const EMAIL =
  "(?i)^[a-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\\.[a-z0-9!#$%&'*+/=?^_`{|}~-]+)*@(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\\.)+[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$";
const UUID = '(?i)^(?:urn:uuid:)?[0-9a-f]{8}-(?:[0-9a-f]{4}-){3}[0-9a-f]{12}$';
const NOT_URI_FRAGMENT = '/|:';
const H16 = '[0-9a-f]{1,4}';
const DEC_OCTET = '(?:25[0-5]|2[0-4]\\d|[01]?\\d\\d?)';
const IPV4 = `(?:${DEC_OCTET}\\.){3}${DEC_OCTET}`;
const LS32 = `(?:${H16}:${H16}|${IPV4})`;
const IPV6 = [
  `(?:(?:${H16}:){6}|::(?:${H16}:){5}|(?:${H16})?::(?:${H16}:){4}|(?:(?:${H16}:){0,1}${H16})?::(?:${H16}:){3}|(?:(?:${H16}:){0,2}${H16})?::(?:${H16}:){2}|(?:(?:${H16}:){0,3}${H16})?::${H16}:|(?:(?:${H16}:){0,4}${H16})?::)${LS32}`,
  `(?:(?:${H16}:){0,5}${H16})?::${H16}`,
  `(?:(?:${H16}:){0,6}${H16})?::`,
].join('|');
const PCT = '%[0-9a-f]{2}';
const UNRESERVED_SUB = "a-z0-9\\-._~!$&'()*+,;=";
const PCHAR = `(?:[${UNRESERVED_SUB}:@]|${PCT})`;
const AUTHORITY = `(?:(?:[${UNRESERVED_SUB}:]|${PCT})*@)?(?:\\[(?:${IPV6}|[Vv][0-9a-f]+\\.[${UNRESERVED_SUB}:]+)\\]|${IPV4}|(?:[${UNRESERVED_SUB}]|${PCT})*)(?::\\d*)?`;
const URI = `(?i)^(?:[a-z][a-z0-9+\\-.]*:)(?:\\/?\\/${AUTHORITY}(?:\\/${PCHAR}*)*|\\/(?:${PCHAR}+(?:\\/${PCHAR}*)*)?|${PCHAR}+(?:\\/${PCHAR}*)*)(?:\\?(?:[${UNRESERVED_SUB}:@/?]|${PCT})*)?(?:#(?:[${UNRESERVED_SUB}:@/?]|${PCT})*)?$`;

/** The groups of `pattern` matched against `value` (index 0 is the whole match), or null. */
const groups = (pattern: string, value: string): (string | undefined)[] | null =>
  compileRegex(pattern).exec(value) as (string | undefined)[] | null;

const isLeapYear = (year: number): boolean =>
  year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);

function isDate(value: string): boolean {
  const match = groups(DATE, value);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  return (
    month >= 1 &&
    month <= 12 &&
    day >= 1 &&
    day <= (month === 2 && isLeapYear(year) ? 29 : DAYS[month]!)
  );
}

function isTime(value: string): boolean {
  const match = groups(TIME, value);
  if (!match) return false;
  const [hour, minute, second] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const zone = match[4];
  const sign = match[5] === '-' ? -1 : 1;
  const zoneHour = Number(match[6] ?? 0);
  const zoneMinute = Number(match[7] ?? 0);
  if (zoneHour > 23 || zoneMinute > 59 || !zone) return false;
  if (hour <= 23 && minute <= 59 && second < 60) return true;
  // A leap second: 23:59:60 in UTC.
  const utcMinute = minute - zoneMinute * sign;
  const utcHour = hour - zoneHour * sign - (utcMinute < 0 ? 1 : 0);
  return (
    (utcHour === 23 || utcHour === -1) && (utcMinute === 59 || utcMinute === -1) && second < 61
  );
}

/**
 * `date`, `date-time`, `email`, `uri` and `uuid` as ajv-formats' full mode checks them
 * (RFC 3339 dates with real calendar days, a time zone required on date-times, RFC 3986
 * absolute URIs), every regular expression on RE2.
 */
export const STANDARD_FORMATS: Readonly<Record<string, (value: string) => boolean>> = {
  date: isDate,
  'date-time': (value) => {
    const parts = compileRegex(DATE_TIME_SEPARATOR).split(value);
    return parts.length === 2 && isDate(parts[0]!) && isTime(parts[1]!);
  },
  email: (value) => compileRegex(EMAIL).test(value),
  uri: (value) => compileRegex(NOT_URI_FRAGMENT).test(value) && compileRegex(URI).test(value),
  uuid: (value) => compileRegex(UUID).test(value),
};
