/** A JSON object: not null, not an array (tRPC's own isObject draws the same line). */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
