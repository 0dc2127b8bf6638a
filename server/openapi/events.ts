// GET /api/events in the OpenAPI document: a stream (server/live/sse.ts), not a procedure, so it is
// written here rather than generated from the router.
import { LIVE_TOPICS } from '../domains/live/schemas';
import { envelope, errorResponse, RATE_LIMIT_HEADERS } from './envelopes';
import type { TJson } from './json';

export const EVENTS_PATH = '/events';

const EXAMPLE_STREAM = [
  'retry: 3000',
  ': connected',
  '',
  'id: 1795758714928-0',
  'data: {"id":"1795758714928-0","topic":"teamups","type":"teamup.published","at":"2026-11-27T06:00:00.000Z","data":{"id":"3f6c8a52-1d4e-4b7a-9c0e-5a2b7d9e1f34","player":"Blackbeard#1234"}}',
  '',
  ': heartbeat',
  '',
  '',
].join('\n');

/** The path item of GET /events, with the document's shared error responses. */
export function eventsPathItem(): TJson {
  return {
    get: {
      operationId: 'live-events',
      tags: ['live'],
      summary: 'Live events as Server-Sent Events: team-ups, war snapshots, drop campaigns',
      description:
        'A `text/event-stream` that stays open: each event is one `data:` line of JSON `{id, topic, type, at, data}` with its `id:`, ' +
        'the same events and ids as the tRPC subscription `live.events`. Types: `war.snapshot` (data: the new latest war state), ' +
        '`drop.started`, `drop.ended`, `drop.changed` (data: the campaign), `teamup.published` (data: the team-up), ' +
        '`teamup.cancelled` and `teamup.expired` (data: `{id}`). Reconnecting with `Last-Event-ID` (as EventSource does) resumes after ' +
        'that event within the last LIVE_RESUME_EVENTS events; an older or unknown id gets a `gap` event first (read the current state again). ' +
        'A `: heartbeat` comment every LIVE_HEARTBEAT_MS; a reader that falls LIVE_MAX_BUFFERED_BYTES behind is closed, and so is every ' +
        'stream at shutdown (reconnect: another instance resumes). At most LIVE_MAX_CONNECTIONS_PER_CLIENT streams per client address (429). docs/live.md.',
      parameters: [
        {
          name: 'topics',
          in: 'query',
          required: false,
          description: `Comma-separated topics (${LIVE_TOPICS.join(', ')}); all of them when absent`,
          schema: { type: 'string', maxLength: 64 },
          example: 'war,drops,teamups',
        },
        {
          name: 'lastEventId',
          in: 'query',
          required: false,
          description: 'The id to resume after, for clients that cannot send the Last-Event-ID header',
          schema: { type: 'string', maxLength: 128 },
          example: '1795758714928-0',
        },
        {
          name: 'Last-Event-ID',
          in: 'header',
          required: false,
          description: 'The id of the last event received (EventSource sends it when it reconnects)',
          schema: { type: 'string', maxLength: 128 },
          example: '1795758714928-0',
        },
      ],
      responses: {
        '200': {
          description: 'OK',
          headers: RATE_LIMIT_HEADERS,
          content: { 'text/event-stream': { schema: { type: 'string' }, example: EXAMPLE_STREAM } },
        },
        '400': errorResponse(
          'Invalid input',
          envelope(400, 'Invalid input: topics[1]: must be one of war, drops, teamups', {
            key: 'request.bad',
            issues: [{ path: 'topics[1]', message: 'must be one of war, drops, teamups' }],
          }),
        ),
        '429': { $ref: '#/components/responses/TooManyRequests' },
        '500': { $ref: '#/components/responses/InternalError' },
        '503': { $ref: '#/components/responses/Unavailable' },
      },
    },
  };
}
