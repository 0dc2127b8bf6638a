/** Getting accounts beyond a plain sign-up: solving the sign-up captcha as a client does, and an admin account. */
import { solveChallenge } from 'altcha-lib';
import { setRole } from '../../server/domains/user/account';
import type { TTestServer } from './helpers';

/** The fields of a sign-in or sign-up answer's `data`, sorted: what the OpenAPI example and the real answer must both carry. */
export const SIGNED_IN_FIELDS = [
  'alternativeName',
  'email',
  'expiresAt',
  'privilege',
  'role',
  'token',
  'userAvatar',
  'userId',
  'username',
];

/** Solves an ALTCHA challenge (as GET /api/captcha returns it) and encodes the solution as the `captchaCode` clients send. */
export async function solveCaptcha(
  challenge: { algorithm: string; challenge: string; salt: string; signature: string; maxnumber?: number },
  tamper?: (payload: Record<string, unknown>) => void,
): Promise<string> {
  const solution = await solveChallenge(challenge.challenge, challenge.salt, challenge.algorithm, challenge.maxnumber)
    .promise;
  if (!solution) throw new Error('captcha challenge not solvable');
  const payload: Record<string, unknown> = {
    algorithm: challenge.algorithm,
    challenge: challenge.challenge,
    number: solution.number,
    salt: challenge.salt,
    signature: challenge.signature,
  };
  tamper?.(payload);
  return Buffer.from(JSON.stringify(payload)).toString('base64');
}

/** Signs up a fresh account and gives it the admin role (as the CLI does). */
export async function signUpAdmin(app: TTestServer): Promise<Awaited<ReturnType<TTestServer['signUp']>>> {
  const admin = await app.signUp();
  if (!(await setRole({ db: app.database.db }, { username: admin.username, role: 'admin' })))
    throw new Error(`setRole failed for ${admin.username}`);
  return admin;
}
