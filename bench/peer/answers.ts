/**
 * What the peer's answers are made of (bench/peer/server.ts): our envelope, and rows mapped to our
 * field names (an assembly's summary, a season).
 */

const RATING_PRIOR_MEAN = 3;
const RATING_PRIOR_COUNT = 5;

export const round2 = (value: number) => Math.round(value * 100) / 100;
export const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/** Our envelope of a success. */
export const ok = (data: unknown) => ({ code: 200, message: 'success', data });
/** Our envelope of a failure, sent with its status. */
export const fail = (reply: any, code: number, message: string) => reply.code(code).send({ code, message, data: {} });

/** A row of the assembly statements (ASSEMBLY_COLUMNS in statements.ts). */
export type TAssemblyRow = Record<string, any>;

export function summary(row: TAssemblyRow) {
  const n = row.rating_count as number;
  return {
    uuid: row.uuid,
    name: row.name,
    shipId: row.ship_id,
    ship: row.hull_id ? { id: row.hull_id, size: row.hull_size, archetype: row.hull_archetype } : null,
    description: row.description,
    tags: JSON.parse(row.tags),
    isPublic: row.is_public === 1,
    hasPassword: row.password_hash !== null,
    creator: { id: row.creator_id, username: row.creator_name },
    likes: row.likes,
    views: row.views,
    rating: {
      average: n > 0 ? round2(row.rating_sum / n) : null,
      count: n,
      smoothed: round2((row.rating_sum + RATING_PRIOR_MEAN * RATING_PRIOR_COUNT) / (n + RATING_PRIOR_COUNT)),
    },
    createdAt: iso(row.created_at),
    updatedAt: iso(row.updated_at),
  };
}

export function seasonOut(row: Record<string, any>, nowMs: number) {
  return {
    id: row.id,
    key: row.key,
    name: row.name,
    number: row.number,
    startDate: row.start_date,
    endDate: row.end_date,
    startsAt: iso(row.starts_at),
    endsAt: iso(row.ends_at),
    status: nowMs < row.starts_at ? 'upcoming' : nowMs < row.ends_at ? 'active' : 'ended',
  };
}
