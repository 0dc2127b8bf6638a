import { randomUUID } from 'node:crypto';
import { count, eq } from 'drizzle-orm';
import type { TDb } from '../../db/client';
import { users } from '../../db/schema';
import { joinNestedTransactions, transaction } from '../../db/transaction';
import { skeletonsOf } from '../domains/user/names';
import { readCommunityData } from '../infra/packaged-files';
import { hashPassword } from '../infra/password';
import { seedMaps } from './map';
import { seedSubscription } from './subscription';
import { DEMO_ASSEMBLY_PASSWORD, seedAssemblies } from './assemblies';
import { seedLiveData } from './live-data';
import { seedSmugglers } from './smugglers';

/** Demo accounts: documented in the README so a fresh install can be tried at once. */
export const DEMO_USERS = [
  { username: 'captain', email: 'captain@tidewatch.example', password: 'tidewatch-demo', role: 'admin' },
  { username: 'deckhand', email: 'deckhand@tidewatch.example', password: 'tidewatch-demo', role: 'user' },
  // Granted every right over the smugglers' weekly reports (issue 35).
  { username: 'quartermaster', email: 'quartermaster@tidewatch.example', password: 'tidewatch-demo', role: 'user' },
] as const;

export interface TSeedReport {
  /** False when the database already had an account: nothing was written. */
  seeded: boolean;
  /** Demo assemblies left out because the catalog in the database lacks their hulls or items, with why. */
  skippedAssemblies: string[];
}

async function hasAccounts(db: TDb): Promise<boolean> {
  const existing = await db.select({ n: count() }).from(users).get();
  return (existing?.n ?? 0) > 0;
}

/** Whether the demo accounts are in the database (seeded now or by an earlier start). */
export async function hasDemoAccounts(db: TDb): Promise<boolean> {
  const captain = await db
    .select({ id: users.id })
    .from(users)
    .where(eq(users.usernameKey, DEMO_USERS[0].username))
    .get();
  return captain !== undefined;
}

/**
 * Fills an empty database (no account) with demo data, all or nothing: everything is written in one
 * transaction, so a failure half-way (or a crash) leaves the database as it was and the next start
 * seeds again. Demo assemblies that do not fit the catalog already present are skipped and reported.
 */
export async function seedDemoData(db: TDb, now: Date): Promise<TSeedReport> {
  if (await hasAccounts(db)) return { seeded: false, skippedAssemblies: [] };
  // Hashing is slow I/O, which a transaction may not await (db/transaction.ts, rule 3): done first,
  // as is reading the community data set (1.6 MB, read only here: a start on a seeded database never does).
  const hashes = await Promise.all(DEMO_USERS.map((user) => hashPassword(user.password)));
  const assemblyPasswordHash = await hashPassword(DEMO_ASSEMBLY_PASSWORD);
  const communityData = readCommunityData();
  return transaction(db, async (tx) => {
    // The seed is one unit: the services it calls open transactions of their own, which join this one.
    joinNestedTransactions(tx);
    // Checked again inside: another instance or a CLI `seed` may have seeded since the check above.
    if (await hasAccounts(tx)) return { seeded: false, skippedAssemblies: [] };
    const ids: Record<string, string> = {};
    for (const [index, user] of DEMO_USERS.entries()) {
      ids[user.username] = randomUUID();
      await tx.insert(users).values({
        id: ids[user.username]!,
        username: user.username,
        usernameKey: user.username.toLowerCase(),
        ...skeletonsOf({ username: user.username }),
        email: user.email,
        passwordHash: hashes[index]!,
        role: user.role,
        createdAt: now,
        updatedAt: now,
      });
    }
    await seedMaps(tx, ids.deckhand!, now);
    await seedSubscription(tx, ids.deckhand!, now);
    const skippedAssemblies = await seedAssemblies(tx, now, {
      captain: ids.captain!,
      deckhand: ids.deckhand!,
      assemblyPasswordHash,
    });
    await seedLiveData({ db: tx, now: () => now }, communityData);
    await seedSmugglers(tx, { captain: ids.captain!, quartermaster: ids.quartermaster! }, now);
    return { seeded: true, skippedAssemblies };
  });
}
