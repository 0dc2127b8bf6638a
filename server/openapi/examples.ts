// Examples: the recorded calls (server/openapi-examples.json, written by scripts/openapi-examples.ts) and the iCalendar feed.
import recordedExamples from '../openapi-examples.json' with { type: 'json' };
import type { TJson } from './json';

/**
 * What one operation was sent and answered when scripts/openapi-examples.ts called it on a server
 * holding the demo data: its parameters, its JSON body, and the `data` of its answer (lists cut short).
 */
export interface TRecordedExample {
  parameters?: Record<string, unknown>;
  headers?: Record<string, string>;
  body?: unknown;
  response?: unknown;
}

/** The recorded examples, by `METHOD /path` as the document writes the path. */
export const RECORDED_EXAMPLES: Record<string, TRecordedExample> = recordedExamples;

export const ICALENDAR_EXAMPLE = [
  'BEGIN:VCALENDAR',
  'VERSION:2.0',
  'PRODID:-//tidewatch//calendar//EN',
  'NAME:Guts and Glory',
  'X-WR-CALNAME:Guts and Glory',
  'REFRESH-INTERVAL;VALUE=DURATION:PT1H',
  'X-PUBLISHED-TTL:PT1H',
  'BEGIN:VEVENT',
  'UID:kraken@y2s4.tidewatch',
  'SEQUENCE:0',
  'DTSTAMP:20251101T120000Z',
  'DTSTART:20251025T180000Z',
  'DTEND:20251027T060000Z',
  'SUMMARY:World event: Kraken Hunt',
  'CATEGORIES:world-event',
  'END:VEVENT',
  'END:VCALENDAR',
].join('\r\n');

/** Examples of the operation's parameters and body, from the recorded call. */
export function documentInputExamples(operation: TJson, recorded: TRecordedExample | undefined): void {
  for (const parameter of operation.parameters ?? []) {
    const value =
      parameter.in === 'header' ? recorded?.headers?.[parameter.name] : recorded?.parameters?.[parameter.name];
    if (value !== undefined && parameter.example === undefined) parameter.example = value;
  }
  const media = operation.requestBody?.content?.['application/json'];
  if (media && recorded?.body !== undefined) media.example = recorded.body;
}
