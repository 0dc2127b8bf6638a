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

/** libuv's threadpool size: UV_THREADPOOL_SIZE as libuv reads it (1 to 1024), 4 when unset. */
function threadpoolSize(): number {
  const size = Number.parseInt(process.env.UV_THREADPOOL_SIZE ?? '', 10);
  return Number.isInteger(size) && size > 0 ? Math.min(size, 1024) : 4;
}

/**
 * How many Argon2 computations run at once on a machine with `cores` cores and a libuv threadpool of
 * `threads`. Each runs on a threadpool thread (napi async work) and keeps a core busy for about 11 ms:
 * as many as the cores is what the machine can compute; fewer leaves cores idle in a sign-in burst
 * (one at a time on two cores ran 0.55 of the peer's sign-ins, two 0.87 to 0.91), and more only
 * contend for the cores (three on two answered no more, at more CPU each: bench/README.md, issue 38).
 * The event loop needs no core of its own: its share of a sign-in is small and the scheduler
 * interleaves it with the hashes. One thread of the pool is left free, so that a file write (the
 * request log), a DNS lookup or zlib never waits behind the hashes. The rest queue here, in arrival order.
 */
export function argon2Concurrency(cores: number, threads: number): number {
  return Math.max(1, Math.min(cores, threads - 1));
}

export const PASSWORD_HASH_CONCURRENCY = argon2Concurrency(availableParallelism(), threadpoolSize());

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
