/**
 * Money and calendar rules of sponsorship. Amounts are integers in minor units (every currency is
 * taken to have two decimals); the API shows them in major units.
 */

export function toMajor(minor: number): number {
  return minor / 100;
}

/** Major units with at most two decimals to minor units; null when the value has finer precision. */
export function toMinor(major: number): number | null {
  const minor = Math.round(major * 100);
  return Math.abs(major * 100 - minor) < 1e-6 ? minor : null;
}

/**
 * `date` plus `months` calendar months in UTC, keeping the time of day. When the target month is
 * shorter, the day is clamped to its last day: Jan 31 + 1 month = Feb 28 (Feb 29 in leap years).
 */
export function addCalendarMonths(date: Date, months: number): Date {
  const year = date.getUTCFullYear();
  const month = date.getUTCMonth() + months;
  const lastDay = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  const day = Math.min(date.getUTCDate(), lastDay);
  return new Date(
    Date.UTC(
      year,
      month,
      day,
      date.getUTCHours(),
      date.getUTCMinutes(),
      date.getUTCSeconds(),
      date.getUTCMilliseconds(),
    ),
  );
}

/** The UTC calendar month containing `date`: [start, end) and its `YYYY-MM` label. */
export function utcMonth(date: Date): { start: Date; end: Date; label: string } {
  const start = new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), 1));
  const end = new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 1));
  return { start, end, label: start.toISOString().slice(0, 7) };
}

/** Percent with two decimals, not capped at 100 (a goal can be exceeded); 0 when there is no goal. */
export function percentOf(part: number, whole: number): number {
  if (whole <= 0) return 0;
  return Math.round((part * 10000) / whole) / 100;
}
