/**
 * Schemas of the user domain: usernames and passwords, accounts and profiles in the shapes the
 * community web client reads (docs/compatibility.md), and the inputs of sign-up, sign-in and password
 * change: the contract's fields and the web client's, turned here into the one input the services take.
 */
import { z } from 'zod';
import { ZTimestamp } from '../../schemas';
import { captchaAnswerOf, ZCaptchaCode, ZClientCaptcha } from '../captcha/schemas';

export const ZUsername = z
  .string()
  .min(3, 'must be at least 3 characters')
  .max(32, 'must be at most 32 characters')
  .regex(/^[A-Za-z0-9_-]+$/, 'may contain only letters, digits, _ and -');

export const ZPassword = z.string().min(8, 'must be at least 8 characters').max(256, 'must be at most 256 characters');

/** The role stored (and set with the CLI). */
export const ZRole = z.enum(['user', 'admin']);
export type TRole = z.infer<typeof ZRole>;

/** Role names as the web client knows them (its public/config/role.json): `user` is `normal`. */
export const ZRoleName = z.enum(['normal', 'admin']);
export type TRoleName = z.infer<typeof ZRoleName>;

const ZRoles = z.array(ZRoleName).meta({ description: 'Role names: `["normal"]` for a user, `["admin"]` for an administrator' });

export const ZUserAttr = z.object({
  introduction: z.string().meta({ description: "Profile text: '' until profiles can be edited" }),
  language: z.string().meta({ description: "Preferred language (e.g. `en-US`): '' (none chosen) until profiles can be edited" }),
});

const profileFields = {
  id: z.string(),
  username: z.string(),
  alternativeName: z.string().nullable().meta({ description: 'Display name: null until profiles can be edited (clients show username)' }),
  userAvatar: z.string().nullable().meta({ description: 'Avatar URL: null (avatars are not served yet)' }),
  role: ZRoles,
  attr: ZUserAttr,
  joinTime: ZTimestamp.meta({ description: 'When the account was created' }),
};

export const ZPublicProfile = z.object({
  ...profileFields,
  lastOnlineTime: ZTimestamp.nullable().meta({ description: 'null: not recorded' }),
});
export type TPublicProfile = z.infer<typeof ZPublicProfile>;

export const ZProfile = ZPublicProfile.extend({ email: z.string() });
export type TProfile = z.infer<typeof ZProfile>;

/** The signed-in account, as the web client keeps it (its UserLocalResult): sign-up, sign-in, password change. */
export const ZSignedIn = z.object({
  token: z.string().meta({ description: 'Send as `Authorization: Bearer <token>` or `x-access-token: <token>`' }),
  expiresAt: ZTimestamp,
  userId: z.string(),
  username: z.string(),
  alternativeName: profileFields.alternativeName,
  userAvatar: profileFields.userAvatar,
  role: ZRoles,
  email: z.string(),
});
export type TSignedIn = z.infer<typeof ZSignedIn>;

export const ZSignUpInput = z
  .strictObject({
    username: ZUsername,
    email: z.email('must be a valid e-mail address').max(254),
    password: ZPassword,
    captchaCode: ZCaptchaCode.optional().meta({ description: 'The contract\'s captcha: base64 ALTCHA payload solving GET /captcha' }),
    captcha: ZClientCaptcha.optional().meta({ description: "The web client's SVG captcha answer; `''` or `{}` is no answer" }),
    alternativeName: z.string().max(40, 'must be at most 40 characters').optional().meta({
      description: "The web client's display name: checked, not stored yet (profiles come later); alternativeName reads null",
    }),
  })
  .transform((input, ctx) => ({
    username: input.username,
    email: input.email,
    password: input.password,
    captcha: captchaAnswerOf(input, ctx),
  }));
export type TSignUpInput = z.output<typeof ZSignUpInput>;

export const ZSignInInput = z
  .strictObject({
    username: z.string().min(1, 'is required').max(254).meta({ description: 'Username or e-mail' }),
    password: z.string().min(1, 'is required').max(256),
    captcha: ZClientCaptcha.optional().meta({ description: "The web client's SVG captcha answer: verified when given; `{}` is no answer" }),
  })
  .transform(({ username, password, captcha }) => ({ login: username, password, captcha }));
export type TSignInInput = z.output<typeof ZSignInInput>;

export const ZUserRef = z.strictObject({ id: z.string().min(1, 'is required').max(64) });

export const ZChangePasswordInput = z.strictObject({ currentPassword: z.string().min(1, 'is required').max(256), newPassword: ZPassword });
export type TChangePasswordInput = z.infer<typeof ZChangePasswordInput>;
