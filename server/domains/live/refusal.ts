import { AppError } from '../../errors';
import type { TRefusal } from '../../infra/events/connections';

/** A live stream refused by the connection limits: 429 (too many for the client or the instance), 503 while shutting down. */
export function liveRefusal(refusal: TRefusal): AppError {
  return refusal.refused === 'closing'
    ? new AppError('SERVICE_UNAVAILABLE', refusal.message, { retryAfterSeconds: 1 })
    : new AppError('TOO_MANY_REQUESTS', refusal.message, { retryAfterSeconds: 10 });
}
