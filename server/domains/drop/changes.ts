// What happened to drop campaigns in a span of time, for the live streams (server/domains/live): those
// that started, ended, or were written (created or updated) in it.
import { and, gt, lte, or } from 'drizzle-orm';
import type { TDb } from '../../../db/client';
import { dropCampaigns } from '../../../db/schema';
import { assemble } from './rows';
import type { TDropCampaign } from './schemas';

export type TDropChange = 'started' | 'ended' | 'changed';

/**
 * The campaigns that started or ended in (fromMs, toMs], or were written in (writtenFromMs, toMs], each
 * with what happened (a campaign may have several), in the API's shape at `toMs`.
 */
export async function dropChangesBetween(
  db: TDb,
  span: { fromMs: number; writtenFromMs: number; toMs: number },
): Promise<{ campaign: TDropCampaign; changes: { change: TDropChange; atMs: number }[] }[]> {
  const [from, writtenFrom, to] = [span.fromMs, span.writtenFromMs, span.toMs].map((ms) => new Date(ms)) as [
    Date,
    Date,
    Date,
  ];
  const rows = await db
    .select()
    .from(dropCampaigns)
    .where(
      or(
        and(gt(dropCampaigns.startsAt, from), lte(dropCampaigns.startsAt, to)),
        and(gt(dropCampaigns.endsAt, from), lte(dropCampaigns.endsAt, to)),
        and(gt(dropCampaigns.updatedAt, writtenFrom), lte(dropCampaigns.updatedAt, to)),
      ),
    )
    .all();
  const campaigns = await assemble(db, rows, to);
  const within = (at: Date, start: number) => at.getTime() > start && at.getTime() <= span.toMs;
  return rows.map((row, index) => ({
    campaign: campaigns[index]!,
    changes: [
      ...(within(row.updatedAt, span.writtenFromMs)
        ? [{ change: 'changed' as const, atMs: row.updatedAt.getTime() }]
        : []),
      ...(within(row.startsAt, span.fromMs) ? [{ change: 'started' as const, atMs: row.startsAt.getTime() }] : []),
      ...(within(row.endsAt, span.fromMs) ? [{ change: 'ended' as const, atMs: row.endsAt.getTime() }] : []),
    ],
  }));
}
