import { randomUUID } from 'node:crypto';
import type { TDb } from '../../db/client';
import { comments } from '../../db/schema';
import { grantMany } from '../domains/privilege/grants';
import { createReport } from '../domains/smugglers/reports';

const WEEK_MS = 7 * 24 * 60 * 60 * 1000;

/** Monday 00:00 UTC of the week holding `now`. */
function weekStart(now: Date): Date {
  const day = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
  return new Date(day.getTime() - ((day.getUTCDay() + 6) % 7) * 86_400_000);
}

function weekly(items: [string, string, number][]) {
  return { inSeason: [], weekly: items.map(([id, currency, worth]) => ({ id, currency, worth })), common: [] };
}

/**
 * The smugglers' programme (issue 35): `quartermaster` is granted the programme and every right over
 * the weekly reports (by `captain`, so the log shows it); last week's report is the captain's, this
 * week's the quartermaster's, both published, and the quartermaster has appraised last week's.
 */
export async function seedSmugglers(
  db: TDb,
  ids: { captain: string; quartermaster: string },
  now: Date,
): Promise<void> {
  const deps = { db, now: () => now };
  const captain = { id: ids.captain, role: 'admin' as const };
  const quartermaster = { id: ids.quartermaster, role: 'user' as const };
  for (const privilegeType of ['smuggler', 'smuggler_weekly_report_ownership'])
    await grantMany(deps, { userIds: [ids.quartermaster], privilegeType, actorId: ids.captain });
  const thisWeek = weekStart(now);
  const lastWeek = new Date(thisWeek.getTime() - WEEK_MS);
  const last = await createReport(deps, {
    user: captain,
    title: "Sainte-Anne's smugglers, last week",
    content: weekly([
      ['culverin1', 'silver', 1200],
      ['demicannon1', 'silver', 2500],
    ]),
    startTime: lastWeek,
    endTime: thisWeek,
    status: 'published',
  });
  await createReport(deps, {
    user: quartermaster,
    title: "Sainte-Anne's smugglers, this week",
    content: weekly([
      ['culverin1', 'silver', 1000],
      ['longGun1', 'silver', 1800],
    ]),
    startTime: thisWeek,
    endTime: new Date(thisWeek.getTime() + WEEK_MS),
    status: 'published',
  });
  await db
    .insert(comments)
    .values({
      id: randomUUID(),
      targetType: 'smugglersReport',
      targetId: String(last.id),
      authorId: ids.quartermaster,
      content: 'The demi-cannons were worth every piece of silver: buy two.',
      createdAt: now,
      updatedAt: now,
    })
    .run();
}
