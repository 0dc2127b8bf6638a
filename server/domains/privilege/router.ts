// Privileges (issue 35) at the web client's paths (src/assets/sripts/api/privilege_service.ts): only
// admins change them (admins are made with the CLI); an account reads its own.
import { ZStreamedAnswer } from '../../schemas';
import { adminProcedure, authedProcedure, publicProcedure, router } from '../../trpc';
import { exportPrivileges } from './export';
import { grantMany, grantPrivilege, revokePrivilege, suspendPrivilege, updateExpiry } from './grants';
import {
  assertAdminOrSelf,
  checkPrivilege,
  listPrivileges,
  privilegeTypes,
  searchPrivileges,
  userPrivileges,
} from './reads';
import {
  MAX_BATCH_USERS,
  MAX_EXPORT_ROWS,
  MAX_LIST_WINDOW,
  ZBatchGranted,
  ZBatchGrantInput,
  ZCheck,
  ZCheckInput,
  ZExportInput,
  ZGrant,
  ZGrantInput,
  ZGrantPage,
  ZGrantRef,
  ZListAnswer,
  ZListInput,
  ZRevoked,
  ZSearchInput,
  ZSuspendInput,
  ZTypes,
  ZUpdateExpiryInput,
  ZUserPrivileges,
  ZUserPrivilegesInput,
} from './schemas';
import { ZNoInput } from '../../schemas';

const LOGGED =
  'Each change is one transaction and one entry of the log (GET /privilege/list?view=log); a call that changes nothing logs nothing.';
const PRIVATE = { cacheControl: 'private, no-cache' };

function openapi(method: 'GET' | 'POST', path: `/privilege/${string}`, summary: string, description: string) {
  return { openapi: { method, path, tags: ['privilege'], protect: true, summary, description } };
}

const grant = adminProcedure
  .meta(
    openapi(
      'POST',
      '/privilege/grant',
      'Grant a privilege type to an account',
      'Admins only. A new grant, or the existing one put in force again (no longer suspended). expiryTime: when it stops (in the future); null: never; left out: a new grant never expires and an existing one keeps an expiry still ahead. ' +
        `Unknown account: 404; a type that cannot be granted: 400; an account state (blacklisted, freezed) to an admin: 409. Granting freezed ends the account's sessions. ${LOGGED}`,
    ),
  )
  .input(ZGrantInput)
  .output(ZGrant)
  .mutation(({ input, ctx }) => grantPrivilege(ctx.deps, { ...input, actorId: ctx.user.id }));

const batchGrant = adminProcedure
  .meta(
    openapi(
      'POST',
      '/privilege/batch-grant',
      'Grant one privilege type to several accounts',
      `Admins only. As /privilege/grant for each of 1 to ${MAX_BATCH_USERS} accounts, all or none: one unknown account is a 404 and nothing is granted. ${LOGGED}`,
    ),
  )
  .input(ZBatchGrantInput)
  .output(ZBatchGranted)
  .mutation(async ({ input, ctx }) => ({
    privilegeType: input.privilegeType,
    grants: await grantMany(ctx.deps, { ...input, actorId: ctx.user.id }),
  }));

const revoke = adminProcedure
  .meta(
    openapi(
      'POST',
      '/privilege/revoke',
      "Revoke an account's grant",
      `Admins only. The grant is deleted; no grant of that type to that account: 404 (of two revokes at once, one succeeds). ${LOGGED}`,
    ),
  )
  .input(ZGrantRef)
  .output(ZRevoked)
  .mutation(({ input, ctx }) => revokePrivilege(ctx.deps, { ...input, actorId: ctx.user.id }));

const suspend = adminProcedure
  .meta(
    openapi(
      'POST',
      '/privilege/suspend',
      'Suspend a grant, or put it back in force',
      `Admins only. suspended (default true): the grant is kept but not in force (status inactive); false puts it back. No such grant: 404. ${LOGGED}`,
    ),
  )
  .input(ZSuspendInput)
  .output(ZGrant)
  .mutation(({ input, ctx }) => suspendPrivilege(ctx.deps, { ...input, actorId: ctx.user.id }));

const updateExpiryOf = adminProcedure
  .meta(
    openapi(
      'POST',
      '/privilege/update-expiry',
      "Change a grant's expiry",
      `Admins only. expiryTime: a time in the future, or null for none. No such grant: 404. Expiry is checked at each use: nothing has to run when it passes. ${LOGGED}`,
    ),
  )
  .input(ZUpdateExpiryInput)
  .output(ZGrant)
  .mutation(({ input, ctx }) => updateExpiry(ctx.deps, { ...input, actorId: ctx.user.id }));

const ofUser = authedProcedure
  .meta({
    ...openapi(
      'GET',
      '/privilege/user/{userId}',
      "An account's grants and what it holds",
      'An admin reads any account, anyone else only their own (403). privileges: the grants in force, or every grant with includeInactive (status active, inactive: suspended, expired); ' +
        'effective: what the account holds now through its role and the tree. `privileges` is also at the top level of the body (PrivilegeManagement.vue:513 reads it there).',
    ),
    http: PRIVATE,
    topLevel: { privileges: 'privileges' },
  })
  .input(ZUserPrivilegesInput)
  .output(ZUserPrivileges)
  .query(({ input, ctx }) => {
    assertAdminOrSelf(ctx.user, input.userId);
    return userPrivileges(ctx.deps, input);
  });

const check = authedProcedure
  .meta({
    ...openapi(
      'GET',
      '/privilege/check/{userId}/{privilegeType}',
      'Whether an account holds a privilege type now',
      'An admin asks about any account, anyone else only about their own (403). Through the tree: a grant in force of the type or of one above it; an admin holds every right.',
    ),
    http: PRIVATE,
  })
  .input(ZCheckInput)
  .output(ZCheck)
  .query(({ input, ctx }) => {
    assertAdminOrSelf(ctx.user, input.userId);
    return checkPrivilege(ctx.deps, input);
  });

const types = publicProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/privilege/types',
      tags: ['privilege'],
      protect: false,
      summary: 'The privilege types, as a tree',
      description:
        'Every type with its parent and children (a grant of a type gives the types below it), whether it can be granted and what it allows. Declared in code: the same for everyone.',
    },
    http: { cacheControl: 'public, max-age=3600' },
  })
  .input(ZNoInput)
  .output(ZTypes)
  .query(() => privilegeTypes());

const list = adminProcedure
  .meta({
    ...openapi(
      'GET',
      '/privilege/list',
      'The grants, or the log of changes, paged',
      'Admins only. view=grants (the default): the grants, newest grant first, filtered by userId, privilegeType and status; view=log: every change, newest first, filtered by userId and privilegeType. ' +
        `A list reaches its first ${MAX_LIST_WINDOW} rows (deeper: 400; /privilege/export takes up to ${MAX_EXPORT_ROWS}).`,
    ),
    http: PRIVATE,
  })
  .input(ZListInput.prefault({}))
  .output(ZListAnswer)
  .query(({ input, ctx }) => listPrivileges(ctx.deps, input));

const search = adminProcedure
  .meta({
    ...openapi(
      'GET',
      '/privilege/search',
      'Grants of the accounts a keyword finds',
      "Admins only. keyword: part of the account's username (any case) or its whole user id; privilegeType narrows. Newest grant first.",
    ),
    http: PRIVATE,
  })
  .input(ZSearchInput.prefault({}))
  .output(ZGrantPage)
  .query(({ input, ctx }) => searchPrivileges(ctx.deps, input));

const exportAll = adminProcedure
  .meta({
    ...openapi(
      'GET',
      '/privilege/export',
      'The grants, or the log, as CSV or JSON',
      `Admins only. format=csv (the default; a header row) or json (an array of objects), view=grants or log, with the filters of /privilege/list. Streamed as it is read, as an attachment; at most ${MAX_EXPORT_ROWS} rows: a larger selection is a 400. ` +
        'Native tRPC: through httpBatchStreamLink (the chunks of the text); other links answer 415.',
    ),
    streamed: { contentTypes: ['text/csv; charset=utf-8', 'application/json; charset=utf-8'] },
  })
  .input(ZExportInput.prefault({}))
  .output(ZStreamedAnswer)
  .query(({ input, ctx }) => exportPrivileges(ctx.deps, input));

export const privilegeRouter = router({
  grant,
  batchGrant,
  revoke,
  suspend,
  updateExpiry: updateExpiryOf,
  user: ofUser,
  check,
  types,
  list,
  search,
  export: exportAll,
});
