// Privileges (issue 35): the web client's calls (src/assets/sripts/api/privilege_service.ts, read by
// src/views/user/admin/PrivilegeManagement.vue) and what they answer.
import { z } from 'zod';
import { zBool, zPage, zPageInput, ZTimestamp } from '../../schemas';
import { GRANTABLE_TYPES, TYPE_NAMES } from './tree';

export { type TPrivilegeType, type TRight, TYPE_NAMES } from './tree';

/** The most accounts one batch grant names. */
export const MAX_BATCH_USERS = 100;
/** The most rows one export answers: a larger selection is a 400 asking for a narrower one. */
export const MAX_EXPORT_ROWS = 10_000;
/** A list reaches its first this many rows (page × pageSize above it is a 400). */
export const MAX_LIST_WINDOW = 10_000;

export const ZPrivilegeType = z
  .enum(TYPE_NAMES, { error: `must be one of ${TYPE_NAMES.join(', ')}` })
  .meta({ description: 'A privilege type of the tree (GET /privilege/types)' });

const ZGrantableType = z
  .enum(GRANTABLE_TYPES, { error: `must be a type that can be granted: ${GRANTABLE_TYPES.join(', ')}` })
  .meta({
    description: 'A privilege type that can be granted (every type of GET /privilege/types with grantable: true)',
  });

export const ZUserId = z
  .string({ error: (issue) => (issue.input === undefined ? 'is required' : 'must be a string') })
  .regex(/^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/, 'must be a user id (a UUID)')
  .transform((id) => id.toLowerCase())
  .meta({ description: "The account's user id (a UUID)" });

const ZExpiry = z.iso
  .datetime({ offset: true, error: 'must be an ISO 8601 date and time, e.g. 2026-07-01T00:00:00Z' })
  .transform((text) => new Date(text))
  .nullable()
  .meta({ description: 'When the grant stops being in force (ISO 8601, in the future); null: never' });

export const ZGrantInput = z.strictObject({
  userId: ZUserId,
  privilegeType: ZGrantableType,
  expiryTime: ZExpiry.optional(),
});
export type TGrantInput = z.infer<typeof ZGrantInput>;

export const ZBatchGrantInput = z.strictObject({
  userIds: z
    .array(ZUserId)
    .min(1, 'must name at least one account')
    .max(MAX_BATCH_USERS, `must name at most ${MAX_BATCH_USERS} accounts`)
    .meta({ description: `The accounts, 1 to ${MAX_BATCH_USERS}` }),
  privilegeType: ZGrantableType,
  expiryTime: ZExpiry.optional(),
});
export type TBatchGrantInput = z.infer<typeof ZBatchGrantInput>;

const grantRef = { userId: ZUserId, privilegeType: ZPrivilegeType };

export const ZGrantRef = z.strictObject(grantRef);
export type TGrantRef = z.infer<typeof ZGrantRef>;

export const ZSuspendInput = z.strictObject({
  ...grantRef,
  suspended: zBool().default(true).meta({ description: 'true (the default): suspend it; false: put it back in force' }),
});
export type TSuspendInput = z.infer<typeof ZSuspendInput>;

export const ZUpdateExpiryInput = z.strictObject({ ...grantRef, expiryTime: ZExpiry });
export type TUpdateExpiryInput = z.infer<typeof ZUpdateExpiryInput>;

export const ZUserPrivilegesInput = z.strictObject({
  userId: ZUserId,
  includeInactive: zBool()
    .default(false)
    .meta({ description: 'true: suspended and expired grants too (PrivilegeManagement.vue:510 asks so)' }),
});

export const ZCheckInput = z.strictObject(grantRef);

const ZStatus = z
  .enum(['active', 'inactive', 'expired'], { error: 'must be active, inactive or expired' })
  .meta({ description: 'active: in force; inactive: suspended; expired: past its expiry' });

function withinWindow(input: { page: number; pageSize: number }, ctx: z.RefinementCtx): void {
  if (input.page * input.pageSize > MAX_LIST_WINDOW)
    ctx.addIssue({
      code: 'custom',
      path: ['page'],
      message: `page × pageSize must be at most ${MAX_LIST_WINDOW}; narrow the list or use /privilege/export`,
    });
}

const ZView = z
  .enum(['grants', 'log'], { error: 'must be grants or log' })
  .default('grants')
  .meta({ description: 'grants (the default): the grants as they are; log: every change, newest first' });

const filters = {
  userId: ZUserId.optional().meta({ description: "Only this account's" }),
  privilegeType: ZPrivilegeType.optional().meta({ description: 'Only this type' }),
  status: ZStatus.optional().meta({ description: 'Grants only: only those of this status' }),
};

export const ZListInput = z.strictObject({ ...zPageInput(20), ...filters, view: ZView }).superRefine(withinWindow);
export type TListInput = z.infer<typeof ZListInput>;

export const ZSearchInput = z
  .strictObject({
    ...zPageInput(20),
    keyword: z
      .string()
      .max(100, 'must be at most 100 characters')
      .optional()
      .meta({ description: "Part of the account's username (any case), or its whole user id" }),
    privilegeType: filters.privilegeType,
  })
  .superRefine(withinWindow);
export type TSearchInput = z.infer<typeof ZSearchInput>;

export const ZExportInput = z.strictObject({
  format: z
    .enum(['csv', 'json'], { error: 'must be csv or json' })
    .default('csv')
    .meta({ description: 'csv (the default: RFC 4180, a header row) or json (an array of objects)' }),
  view: ZView,
  ...filters,
});
export type TExportInput = z.infer<typeof ZExportInput>;

export const ZGrant = z.object({
  userId: z.string().meta({ description: 'The account' }),
  username: z.string().meta({ description: "The account's username" }),
  privilegeType: z.string().meta({ description: 'The type granted' }),
  status: ZStatus,
  grantedBy: z.string().nullable().meta({ description: 'The admin who granted it last (null: that account is gone)' }),
  grantedTime: ZTimestamp.meta({ description: 'When it was granted last' }),
  expiryTime: ZTimestamp.nullable().meta({ description: 'When it stops being in force; null: never' }),
  suspendedTime: ZTimestamp.nullable().meta({ description: 'When it was suspended; null: not suspended' }),
});
export type TGrant = z.infer<typeof ZGrant>;

export const ZAuditEntry = z.object({
  id: z.number().int().meta({ description: 'The change, in order' }),
  userId: z.string().meta({ description: 'The account changed' }),
  username: z.string().nullable().meta({ description: 'Its username (null: the account is gone)' }),
  privilegeType: z.string().meta({ description: 'The type changed' }),
  action: z
    .enum(['grant', 'revoke', 'suspend', 'resume', 'expiry'])
    .meta({ description: 'grant (or renew), revoke, suspend, resume, expiry (changed)' }),
  actorId: z.string().meta({ description: 'The admin who made the change' }),
  actorName: z.string().nullable().meta({ description: "That admin's username (null: the account is gone)" }),
  time: ZTimestamp.meta({ description: 'When' }),
  expiryTime: ZTimestamp.nullable().meta({ description: "The grant's expiry after the change" }),
});
export type TAuditEntry = z.infer<typeof ZAuditEntry>;

export const ZGrantPage = zPage(ZGrant);
export const ZAuditPage = zPage(ZAuditEntry);
export const ZListAnswer = z.discriminatedUnion('view', [
  ZGrantPage.extend({ view: z.literal('grants').meta({ description: 'The grants' }) }),
  ZAuditPage.extend({ view: z.literal('log').meta({ description: 'The changes' }) }),
]);
export type TListAnswer = z.infer<typeof ZListAnswer>;

export const ZUserPrivileges = z.object({
  userId: z.string().meta({ description: 'The account' }),
  privileges: z.array(ZGrant).meta({
    description:
      'Its grants (PrivilegeManagement.vue:513 reads privilegeType, status, expiryTime); also beside the envelope',
  }),
  effective: z
    .array(z.string())
    .meta({ description: 'What it holds now: its role and grants in force through the tree' }),
});
export type TUserPrivileges = z.infer<typeof ZUserPrivileges>;

export const ZCheck = z.object({
  userId: z.string().meta({ description: 'The account' }),
  privilegeType: z.string().meta({ description: 'The type asked about' }),
  hasPrivilege: z.boolean().meta({ description: 'Whether the account holds it now' }),
});

export const ZTypeInfo = z.object({
  type: z.string().meta({ description: 'Its name' }),
  kind: z.enum(['state', 'right']).meta({ description: 'state: an account state; right: what an account may do' }),
  parent: z.string().nullable().meta({ description: 'The type above it, which grants it too; null: a root' }),
  children: z.array(z.string()).meta({ description: 'The types right below it' }),
  grantable: z.boolean().meta({ description: 'false: held only through its parent' }),
  description: z.string().meta({ description: 'What it allows' }),
});
export const ZTypes = z.object({
  types: z.array(ZTypeInfo).meta({ description: 'Every type, a parent before its children' }),
});

export const ZBatchGranted = z.object({
  privilegeType: z.string().meta({ description: 'The type granted' }),
  grants: z.array(ZGrant).meta({ description: 'One grant per account, in the order given' }),
});

export const ZRevoked = z.object({
  userId: z.string().meta({ description: 'The account' }),
  privilegeType: z.string().meta({ description: 'The type revoked' }),
  revoked: z.literal(true).meta({ description: 'Always true' }),
});
