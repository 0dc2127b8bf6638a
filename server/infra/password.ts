import { availableParallelism } from 'node:os';
import { hash, verify } from '@node-rs/argon2';
import { concurrencyLimit } from './concurrency';

// OWASP's Argon2id baseline: 19 MiB, 2 passes, 1 lane.
const OPTIONS = {
  algorithm: 2 /* Argon2id (a const enum in the typings) */,
  memoryCost: 19_456,
  timeCost: 2,
  parallelism: 1,
} as const;

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

/**
 * Checks of secrets other than account passwords (private assemblies') running or queued at once: at
 * most half the Argon2 slots' worth (at least one). Guesses at them from many clients across many
 * assemblies are bounded by no one limit; this lane keeps them from queueing in front of sign-ins,
 * which wait behind at most this many of them.
 */
export const SHARED_SECRET_CONCURRENCY = Math.max(1, Math.floor(PASSWORD_HASH_CONCURRENCY / 2));

const sharedSecretLane = concurrencyLimit(SHARED_SECRET_CONCURRENCY);

/** verifyPassword for a secret shared with readers (a private assembly's password), in its own lane. */
export function verifySharedSecret(passwordHash: string, password: string): Promise<boolean> {
  return sharedSecretLane(() => verifyPassword(passwordHash, password));
}

let dummyHash: Promise<string> | undefined;

/** Spends the same time as a real check, so an unknown username cannot be told from a wrong password. */
export async function burnPasswordCheck(password: string): Promise<void> {
  dummyHash ??= hashPassword('tidewatch-timing-equaliser');
  await verifyPassword(await dummyHash, password);
}
