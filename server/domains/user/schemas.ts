/** Schemas of the user domain: usernames and passwords, profiles, sessions handed out, and the inputs of sign-up, sign-in and password change. */
import { z } from 'zod';
import { ZTimestamp } from '../../schemas';

export const ZUsername = z
  .string()
  .min(3, 'must be at least 3 characters')
  .max(32, 'must be at most 32 characters')
  .regex(/^[A-Za-z0-9_-]+$/, 'may contain only letters, digits, _ and -');

export const ZPassword = z.string().min(8, 'must be at least 8 characters').max(256, 'must be at most 256 characters');

export const ZRole = z.enum(['user', 'admin']);
export type TRole = z.infer<typeof ZRole>;

export const ZPublicProfile = z.object({
  id: z.string(),
  username: z.string(),
  role: ZRole,
  createdAt: ZTimestamp,
});
export type TPublicProfile = z.infer<typeof ZPublicProfile>;

export const ZProfile = ZPublicProfile.extend({ email: z.string() });
export type TProfile = z.infer<typeof ZProfile>;

export const ZSignedIn = z.object({
  token: z.string().meta({ description: 'Send as `Authorization: Bearer <token>`' }),
  expiresAt: ZTimestamp,
  user: ZProfile,
});
export type TSignedIn = z.infer<typeof ZSignedIn>;

export const ZSignUpInput = z.object({
  username: ZUsername,
  email: z.email('must be a valid e-mail address').max(254),
  password: ZPassword,
  captchaCode: z.string().min(1).max(4096).optional(),
});
export type TSignUpInput = z.infer<typeof ZSignUpInput>;

export const ZSignInInput = z.object({
  username: z.string().min(1, 'is required').max(254).meta({ description: 'Username or e-mail' }),
  password: z.string().min(1, 'is required').max(256),
});

export const ZUserRef = z.object({ id: z.string().min(1, 'is required').max(64) });

export const ZChangePasswordInput = z.object({ currentPassword: z.string().min(1, 'is required').max(256), newPassword: ZPassword });
export type TChangePasswordInput = z.infer<typeof ZChangePasswordInput>;
