/**
 * Schemas of the user domain: usernames and passwords, accounts and profiles in the shapes the
 * community web client reads (docs/compatibility.md), and the inputs of sign-up, sign-in and password
 * change: the contract's fields and the web client's, turned here into the one input the services take.
 */
import { z } from 'zod';
import { zPage, zPageInput, ZTimestamp } from '../../schemas';
import { zText } from '../../text';
import { MAX_LIST_WINDOW, ZAssemblySummary } from '../assembly/schemas';
import { captchaAnswerOf, ZCaptchaCode, ZClientCaptcha } from '../captcha/schemas';

/** Profile limits (docs/users.md). */
export const MAX_ALTERNATIVE_NAME = 40;
export const MAX_INTRODUCTION = 5000;

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

/**
 * A display name: a name under the text rule (server/text.ts: one line, nothing invisible or blank,
 * no space but U+0020), at most 40 characters. `''` is none: clients show the username. That it
 * does not pass for another account's username is checked when it is stored (names.ts).
 */
export const ZAlternativeName = zText({ max: MAX_ALTERNATIVE_NAME, kind: 'name' });

const ZRoles = z
  .array(ZRoleName)
  .meta({ description: 'Role names: `["normal"]` for a user, `["admin"]` for an administrator' });

export const ZUserAttr = z.object({
  introduction: z.string().meta({ description: "Profile text, plain text as the user wrote it; '' when none" }),
  language: z
    .string()
    .meta({ description: "Preferred language, a tag such as `en-US` or `zh-CN`; '' when none chosen" }),
});

/** How a user is shown: what a profile and the signed-in account both hold (UserIdentity in the OpenAPI document). */
const identityFields = {
  username: z.string().meta({ description: 'The unique sign-in name' }),
  alternativeName: z
    .string()
    .nullable()
    .meta({ description: 'Display name (PUT /user/changeAlternativeName); null when none (clients show username)' }),
  userAvatar: z.string().nullable().meta({
    description:
      'Avatar: the https URL the user gave, or the path of the uploaded image served here (`/api/user/avatar/{id}?v=…`); null when none',
  }),
  role: ZRoles,
};
export const ZUserIdentity = z
  .object(identityFields)
  .meta({ description: 'How a user is shown (PublicProfile, Session)' });

const profileFields = {
  id: z.string().meta({ description: 'The user id' }),
  ...identityFields,
  attr: ZUserAttr.meta({ description: 'Profile settings (POST /user/me)' }),
  joinTime: ZTimestamp.meta({ description: 'When the account was created' }),
};

export const ZPublicProfile = z.object({
  ...profileFields,
  userId: z.string().meta({
    description: 'The user id again, under the name AccountCardWidget.vue links the profile with (`userId || id`)',
  }),
  lastOnlineTime: ZTimestamp.nullable().meta({ description: 'null: not recorded' }),
});
export type TPublicProfile = z.infer<typeof ZPublicProfile>;

/**
 * The privilege types the caller holds now (issue 35: through its role and its grants in force, and
 * the tree; docs/privileges.md). The web client's smugglersReport.vue:371 reads `privilege`.
 */
const ZPrivileges = z.array(z.string()).meta({
  description:
    'The privilege types the account holds now: an admin every right, others what their grants in force give (GET /privilege/types)',
});

export const ZProfile = ZPublicProfile.extend({
  email: z.string().meta({ description: 'The e-mail address of the account (shown to its owner only)' }),
  privilege: ZPrivileges,
});
export type TProfile = z.infer<typeof ZProfile>;

/** The signed-in account, as the web client keeps it (its UserLocalResult): sign-up, sign-in, password change. */
export const ZSignedIn = z.object({
  token: z.string().meta({ description: 'Send as `Authorization: Bearer <token>` or `x-access-token: <token>`' }),
  expiresAt: ZTimestamp.meta({ description: 'When the token stops working: sign in again after it' }),
  userId: z.string().meta({ description: 'The user id' }),
  ...identityFields,
  email: z.string().meta({ description: 'The e-mail address of the account' }),
  privilege: ZPrivileges,
});
export type TSignedIn = z.infer<typeof ZSignedIn>;

export const ZSignUpInput = z
  .strictObject({
    username: ZUsername.meta({ description: 'The sign-in name: 3-32 of A-Z a-z 0-9 _ -' }),
    email: z.email('must be a valid e-mail address').max(254).meta({ description: 'E-mail address, unique' }),
    password: ZPassword.meta({ description: 'The password, 8-256 characters' }),
    captchaCode: ZCaptchaCode.optional().meta({
      description: "The contract's captcha: base64 ALTCHA payload solving GET /captcha",
    }),
    captcha: ZClientCaptcha.optional().meta({
      description: "The web client's SVG captcha answer; `''` or `{}` is no answer",
    }),
    alternativeName: ZAlternativeName.optional().meta({
      description: "The web client's display name, stored as PUT /user/changeAlternativeName stores it ('' is none)",
    }),
  })
  .transform((input, ctx) => ({
    username: input.username,
    email: input.email,
    password: input.password,
    alternativeName: input.alternativeName || null,
    captcha: captchaAnswerOf(input, ctx),
  }));
export type TSignUpInput = z.output<typeof ZSignUpInput>;

export const ZSignInInput = z
  .strictObject({
    username: z.string().min(1, 'is required').max(254).meta({ description: 'Username or e-mail' }),
    password: z.string().min(1, 'is required').max(256),
    captcha: ZClientCaptcha.optional().meta({
      description: "The web client's SVG captcha answer: verified when given; `{}` is no answer",
    }),
  })
  .transform(({ username, password, captcha }) => ({ login: username, password, captcha }));
export type TSignInInput = z.output<typeof ZSignInInput>;

export const ZUserRef = z.strictObject({
  id: z
    .string()
    .min(1, 'is required')
    .max(64)
    .meta({ description: 'The user to show: their id (the userId of their assemblies and comments)' }),
});

export const ZChangePasswordInput = z.strictObject({
  currentPassword: z.string().min(1, 'is required').max(256),
  newPassword: ZPassword.meta({ description: 'The new password, 8-256 characters' }),
});
export type TChangePasswordInput = z.infer<typeof ZChangePasswordInput>;

/** The web client's form of the password change (PUT /user/changePassword), turned into the contract's. */
export const ZClientChangePasswordInput = z
  .strictObject({
    oldPassword: z.string().min(1, 'is required').max(256).meta({ description: 'The current password' }),
    newPassword: ZPassword.meta({ description: 'The new password, 8-256 characters' }),
  })
  .transform(({ oldPassword, newPassword }): TChangePasswordInput => ({ currentPassword: oldPassword, newPassword }));

/** PUT /user/changeAlternativeName: the web client sends the new display name as `username`. */
export const ZChangeAlternativeNameInput = z.strictObject({
  username: ZAlternativeName.meta({ description: "The new display name (the web client's field name); '' removes it" }),
});

const ZIntroduction = zText({ max: MAX_INTRODUCTION, kind: 'multiline' });

const ZLanguage = z
  .string()
  .max(35, 'must be at most 35 characters')
  .regex(/^(?:[A-Za-z]{2,3}(?:[-_][A-Za-z0-9]{1,8}){0,4})?$/, "must be a language tag such as en-US or zh-CN, or ''");

/** POST /user/me: the web client's profile form. A field left out is unchanged; `''` clears it. */
export const ZUpdateMeInput = z.strictObject({
  attr: z.strictObject({
    introduction: ZIntroduction.optional().meta({
      description: `Profile text (plain text, at most ${MAX_INTRODUCTION} characters)`,
    }),
    language: ZLanguage.optional().meta({ description: 'Preferred language: a tag such as `en-US` or `zh-CN`' }),
  }),
});
export type TUpdateMeInput = z.infer<typeof ZUpdateMeInput>;

/** A page of a user's list reaches the first MAX_LIST_WINDOW entries, as GET /assembly/list does (a deeper page is a 400). */
function withinWindow(input: { page: number; pageSize: number }, ctx: z.RefinementCtx): void {
  if (input.page * input.pageSize > MAX_LIST_WINDOW) {
    ctx.addIssue({ code: 'custom', path: ['page'], message: `page × pageSize must be at most ${MAX_LIST_WINDOW}` });
  }
}

/** user/me/assemblys, user/likes: the caller's own lists. */
export const ZOwnListInput = z.strictObject({ ...zPageInput(20) }).superRefine(withinWindow);

/** user/space/assemblys, user/space/likes: a user's public lists. */
export const ZSpaceListInput = z
  .strictObject({
    userId: z.string().min(1, 'is required').max(64).meta({ description: 'The user whose space it is (their id)' }),
    ...zPageInput(20),
  })
  .superRefine(withinWindow);

/** A page of assemblies in the list item form of GET /assembly/list. */
export const ZUserAssemblyPage = zPage(ZAssemblySummary);
