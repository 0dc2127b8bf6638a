import { availableParallelism } from 'node:os';
import { hash, verify } from '@node-rs/argon2';
import { concurrencyLimit } from './concurrency';

// OWASP's Argon2id baseline: 19 MiB, 2 passes, 1 lane.
const OPTIONS = { algorithm: 2 /* Argon2id (a const enum in the typings) */, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

/**
 * Argon2 computations at once: one fewer than the cores (at least one, at most four). Each holds
 * 19 MiB and keeps a core busy, so more at once only adds memory (libuv would run four) and takes
 * the last core from the event loop, which serves every other request; the rest queue here.
 */
export const PASSWORD_HASH_CONCURRENCY = Math.max(1, Math.min(4, availableParallelism() - 1));

const limited = concurrencyLimit(PASSWORD_HASH_CONCURRENCY);

export function hashPassword(password: string): Promise<string> {
  return limited(() => hash(password, OPTIONS));
}

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await limited(() => verify(passwordHash, password));
  } catch {
    return false;
  }
}

let dummyHash: Promise<string> | undefined;

/** Spends the same time as a real check, so an unknown username cannot be told from a wrong password. */
export async function burnPasswordCheck(password: string): Promise<void> {
  dummyHash ??= hashPassword('tidewatch-timing-equaliser');
  await verifyPassword(await dummyHash, password);
}
