import { count, eq } from 'drizzle-orm';
import type { TDb } from './client';
import { users } from './schema';
import { createAccount } from '../server/services/account';
import { seedMaps } from './seed/map';
import { seedSubscription } from './seed/subscription';
import { seedAssemblies } from './seed/assemblies';
import { seedLiveData } from './seed/live-data';

/** Demo accounts: documented in the README so a fresh install can be tried at once. */
export const DEMO_USERS = [
  { username: 'captain', email: 'captain@tidewatch.example', password: 'tidewatch-demo', role: 'admin' },
  { username: 'deckhand', email: 'deckhand@tidewatch.example', password: 'tidewatch-demo', role: 'user' },
] as const;

/** Fills an empty database with demo data; does nothing if any account exists. Returns whether it seeded. */
export async function seedDemoData(db: TDb, now: Date): Promise<boolean> {
  const existing = await db.select({ n: count() }).from(users).get();
  if ((existing?.n ?? 0) > 0) return false;
  for (const user of DEMO_USERS) {
    await createAccount(db, user, now);
  }
  const deckhand = await db.select({ id: users.id }).from(users).where(eq(users.usernameKey, 'deckhand')).get();
  await seedMaps(db, deckhand!.id, now);
  await seedSubscription(db, deckhand!.id, now);
  await seedAssemblies(db, now);
  await seedLiveData(db, now);
  return true;
}
