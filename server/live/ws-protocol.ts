// The community web client's WebSocket protocol (src/views/Team.vue:145-195, 263-360): JSON messages
// `{type, payload}` in, `{type, payload | code | message}` out. Only the translation lives here; the
// connection is websocket.ts.
import type { TBusEvent } from '../infra/events/bus';
import { TEAMUP_EVENTS } from '../domains/teamup/schemas';

/** What the client sends (Team.vue:152, 179, 271). */
export type TClientMessage =
  | { type: 'authenticate'; payload: { token?: unknown } }
  | { type: 'publish_team_up'; payload: Record<string, unknown> }
  | { type: 'cancel_team_up'; payload: { id?: unknown } };

/** What the client reads (Team.vue:288-341). */
export type TServerMessage =
  | { type: 'new_team_up' | 'cancel_team_up' | 'team_up_expired'; payload: unknown }
  | {
      type: 'publish_rate_limit';
      code: 'teamUp_anonymous_rateLimit' | 'teamUp_account_rateLimit';
      remainingTime: number;
      message: string;
    }
  | { type: 'auth_failed'; code: 'teamUp.authFailed'; message: string }
  | { type: 'error'; message: string; code?: string };

const CLIENT_TYPES = new Set(['authenticate', 'publish_team_up', 'cancel_team_up']);

/** The message, or why it is not one the protocol knows. */
export function readClientMessage(text: string): TClientMessage | { problem: string } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { problem: 'a message must be JSON: {"type": ..., "payload": {...}}' };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return { problem: 'a message must be a JSON object' };
  const { type, payload } = value as { type?: unknown; payload?: unknown };
  if (typeof type !== 'string' || !CLIENT_TYPES.has(type))
    return { problem: `unknown message type: type must be one of ${[...CLIENT_TYPES].join(', ')}` };
  if (typeof payload !== 'object' || payload === null || Array.isArray(payload))
    return { problem: `${type}: payload must be an object` };
  return { type, payload } as TClientMessage;
}

const OUT_TYPES: Record<string, 'new_team_up' | 'cancel_team_up' | 'team_up_expired'> = {
  [TEAMUP_EVENTS.published]: 'new_team_up',
  [TEAMUP_EVENTS.cancelled]: 'cancel_team_up',
  [TEAMUP_EVENTS.expired]: 'team_up_expired',
};

/** The bytes of the last event as the client reads it, shared by every connection it goes to (one delivery loop). */
let lastEvent: TBusEvent | undefined;
let lastBytes: Buffer | undefined;

/** A team-up event as the client's message (new_team_up, cancel_team_up, team_up_expired), UTF-8; undefined for others (a gap). */
export function clientMessageOf(event: TBusEvent): Buffer | undefined {
  if (event !== lastEvent) {
    lastEvent = event;
    const type = OUT_TYPES[event.type];
    lastBytes =
      type === undefined ? undefined : Buffer.from(JSON.stringify({ type, payload: event.data, id: event.id }));
  }
  return lastBytes;
}
