// Sponsorship rules with no server: calendar-month arithmetic, money in minor units and percentages,
// and the PAYMENT_MANUAL_SECRET setting.
import * as assert from 'uvu/assert';
import { ConfigError, loadConfig } from '../../server/config';
import { addCalendarMonths, percentOf, toMinor } from '../../server/domains/subscription/money';
import { suite } from '../support/suite';

const Rules = suite('sponsorship rules: calendar months, money, percent');

Rules('a month added to the 31st clamps to the end of a shorter month and keeps the time of day', () => {
  const at = (iso: string) => new Date(iso);
  assert.is(addCalendarMonths(at('2027-01-31T10:20:30.456Z'), 1).toISOString(), '2027-02-28T10:20:30.456Z');
  assert.is(
    addCalendarMonths(at('2028-01-31T00:00:00.000Z'), 1).toISOString(),
    '2028-02-29T00:00:00.000Z',
    'leap year',
  );
  assert.is(addCalendarMonths(at('2027-03-31T23:59:59.999Z'), 1).toISOString(), '2027-04-30T23:59:59.999Z');
  assert.is(
    addCalendarMonths(at('2026-12-31T12:00:00.000Z'), 2).toISOString(),
    '2027-02-28T12:00:00.000Z',
    'across a year end',
  );
  assert.is(addCalendarMonths(at('2027-08-31T12:00:00.000Z'), 6).toISOString(), '2028-02-29T12:00:00.000Z');
  assert.is(addCalendarMonths(at('2027-01-15T08:00:00.000Z'), 12).toISOString(), '2028-01-15T08:00:00.000Z');
  assert.is(addCalendarMonths(at('2027-11-30T08:00:00.000Z'), 3).toISOString(), '2028-02-29T08:00:00.000Z');
});

Rules('money converts to minor units only with at most two decimals; percent rounds to two decimals', () => {
  assert.is(toMinor(4.99), 499);
  assert.is(toMinor(12.99), 1299);
  assert.is(toMinor(0.1 + 0.2), 30);
  assert.is(toMinor(1.005), null);
  assert.is(percentOf(12095, 20000), 60.48);
  assert.is(percentOf(1, 3), 33.33);
  assert.is(percentOf(2, 3), 66.67);
  assert.is(percentOf(30000, 20000), 150, 'not capped');
  assert.is(percentOf(5, 0), 0);
});

Rules('PAYMENT_MANUAL_SECRET is required in production, optional elsewhere', () => {
  assert.throws(
    () => loadConfig({ NODE_ENV: 'production' }),
    (error: unknown) => error instanceof ConfigError && /PAYMENT_MANUAL_SECRET/.test(String(error)),
  );
  assert.is(
    loadConfig({ NODE_ENV: 'production', PAYMENT_MANUAL_SECRET: 'a-long-enough-secret' }).PAYMENT_MANUAL_SECRET,
    'a-long-enough-secret',
  );
  assert.is(loadConfig({ NODE_ENV: 'development' }).PAYMENT_MANUAL_SECRET, undefined);
  assert.throws(() => loadConfig({ PAYMENT_MANUAL_SECRET: 'short' }), /PAYMENT_MANUAL_SECRET/);
});

Rules.run();
