// The access matrix's rows of privileges and the smugglers' reports (issue 35): who may call each
// endpoint, for the callers the issue names. test/cross-cutting/access-matrix-privileges.test.ts runs
// them on both surfaces; test/cross-cutting/access-matrix-document.test.ts counts their endpoints as classified.
import { randomUUID } from 'node:crypto';
import { comments, privilegeGrants, smugglersReports } from '../../db/schema';
import type { TTestServer } from './helpers';
import type { TCase } from './surfaces';

type TUser = Awaited<ReturnType<TTestServer['signUp']>>;

/**
 * The callers: no token; an account with no grant; accounts whose grant of
 * smuggler_weekly_report_ownership has expired, is suspended, is in force (the author of what the row
 * acts on), or is in force on a blacklisted account; an admin.
 */
export const CALLERS = ['anonymous', 'ordinary', 'expired', 'suspended', 'author', 'admin', 'blacklisted'] as const;
export type TWho = (typeof CALLERS)[number];

export interface TMatrixFixtures {
  app: TTestServer;
  users: Record<Exclude<TWho, 'anonymous'>, TUser>;
  /** Holds every right: writes the reports the commenting rows act on. */
  reporter: TUser;
}

export interface TRow {
  /** Fresh resources for one call by `who` (each surface gets its own), and the request. */
  prepare(f: TMatrixFixtures, who: TWho): Promise<TCase>;
  expected: Record<TWho, number[]>;
}

const HOUR = 60 * 60 * 1000;

/** Gives the callers their grants, written as the service would have written them (an expired one an hour ago). */
export async function grantCallers(f: TMatrixFixtures): Promise<void> {
  const db = f.app.database.db;
  const now = f.app.clock.now();
  const grant = (user: TUser, type: string, extra: Partial<typeof privilegeGrants.$inferInsert> = {}) =>
    db
      .insert(privilegeGrants)
      .values({ userId: user.id, type, grantedBy: f.users.admin.id, grantedAt: now, ...extra })
      .run();
  const ownership = 'smuggler_weekly_report_ownership';
  await grant(f.users.expired, ownership, {
    grantedAt: new Date(now.getTime() - 2 * HOUR),
    expiresAt: new Date(now.getTime() - HOUR),
  });
  await grant(f.users.suspended, ownership, { suspendedAt: now });
  await grant(f.users.author, ownership);
  await grant(f.users.blacklisted, ownership);
  await grant(f.users.blacklisted, 'blacklisted');
  await grant(f.reporter, ownership);
}

/** A report written straight to the table (whatever its author holds), of `who`'s, or the reporter's for anonymous and admin. */
async function reportOf(f: TMatrixFixtures, who: TWho, status: 'draft' | 'published' = 'published'): Promise<string> {
  const author = who === 'anonymous' || who === 'admin' || who === 'ordinary' ? f.reporter : f.users[who];
  const now = f.app.clock.now();
  const [row] = await f.app.database.db
    .insert(smugglersReports)
    .values({
      authorId: author.id,
      title: `Matrix week of ${who}`,
      content: JSON.stringify({ weekly: [] }),
      startTime: now,
      endTime: new Date(now.getTime() + 7 * 24 * HOUR),
      status,
      createdAt: now,
      updatedAt: now,
    })
    .returning({ id: smugglersReports.id });
  return String(row!.id);
}

/** `who`'s comment (the reporter's report; the admin's row acts on the author's comment) on a fresh report. */
async function commentOf(f: TMatrixFixtures, who: TWho): Promise<{ report: string; comment: string }> {
  const report = await reportOf(f, 'anonymous');
  const author = who === 'anonymous' || who === 'admin' || who === 'ordinary' ? f.users.author : f.users[who];
  const id = randomUUID();
  const now = f.app.clock.now();
  await f.app.database.db
    .insert(comments)
    .values({
      id,
      targetType: 'smugglersReport',
      targetId: report,
      authorId: author.id,
      content: 'An appraisal',
      createdAt: now,
      updatedAt: now,
    })
    .run();
  return { report, comment: id };
}

const REPORT = {
  title: 'Matrix week',
  content: { weekly: [] },
  startTime: '2026-06-01T00:00:00Z',
  endTime: '2026-06-08T00:00:00Z',
};
const everyone = (status: number): Record<TWho, number[]> =>
  Object.fromEntries(CALLERS.map((who) => [who, [status]])) as Record<TWho, number[]>;
/** Admins only: 401 without a token, 403 for everyone else (a blacklisted account's write: 403 too). */
const ADMIN_ONLY = { ...everyone(403), anonymous: [401], admin: [200] };
/** A write with the right, of one's own: only the author in force and an admin. */
const AUTHOR_WRITE = { ...everyone(403), anonymous: [401], author: [200], admin: [200] };

export const PRIVILEGE_ROWS: Record<string, TRow> = {
  'GET /privilege/types': { prepare: async () => ({}), expected: everyone(200) },
  'POST /privilege/grant': {
    prepare: async (f) => ({ body: { userId: f.users.ordinary.id, privilegeType: 'smuggler' } }),
    expected: ADMIN_ONLY,
  },
  'POST /privilege/batch-grant': {
    prepare: async (f) => ({ body: { userIds: [f.users.ordinary.id], privilegeType: 'smuggler' } }),
    expected: ADMIN_ONLY,
  },
  'POST /privilege/suspend': {
    prepare: async (f) => ({
      body: { userId: f.reporter.id, privilegeType: 'smuggler_weekly_report_ownership', suspended: false },
    }),
    expected: ADMIN_ONLY,
  },
  'POST /privilege/update-expiry': {
    prepare: async (f) => ({
      body: { userId: f.reporter.id, privilegeType: 'smuggler_weekly_report_ownership', expiryTime: null },
    }),
    expected: ADMIN_ONLY,
  },
  'POST /privilege/revoke': {
    prepare: async (f) => {
      const user = await f.app.signUp();
      await f.app.database.db
        .insert(privilegeGrants)
        .values({ userId: user.id, type: 'smuggler', grantedBy: f.users.admin.id, grantedAt: f.app.clock.now() })
        .run();
      return { body: { userId: user.id, privilegeType: 'smuggler' } };
    },
    expected: ADMIN_ONLY,
  },
  'GET /privilege/list': { prepare: async () => ({ query: { view: 'log' } }), expected: ADMIN_ONLY },
  'GET /privilege/search': { prepare: async () => ({ query: { keyword: 'sailor' } }), expected: ADMIN_ONLY },
  // The author's own; anyone else but an admin: 403.
  'GET /privilege/user/{userId}': {
    prepare: async (f) => ({ path: { userId: f.users.author.id }, query: { includeInactive: 'true' } }),
    expected: { ...ADMIN_ONLY, author: [200] },
  },
  'GET /privilege/check/{userId}/{privilegeType}': {
    prepare: async (f) => ({ path: { userId: f.users.author.id, privilegeType: 'smuggler_weekly_report_create' } }),
    expected: { ...ADMIN_ONLY, author: [200] },
  },
  // Every signed-in caller but a blacklisted one: a POST is a write (a mutation on native tRPC).
  'POST /smugglers/privileges/check': {
    prepare: async () => ({ body: { privileges: ['smuggler_weekly_report_create'] } }),
    expected: { ...everyone(200), anonymous: [401], blacklisted: [403] },
  },
  'GET /smugglers/reports': { prepare: async () => ({ query: { pageSize: '5' } }), expected: everyone(200) },
  'GET /smugglers/my-reports': { prepare: async () => ({}), expected: { ...everyone(200), anonymous: [401] } },
  'GET /smugglers/reports/byTime': { prepare: async () => ({}), expected: everyone(200) },
  // The author's draft: its author and the admins see it.
  'GET /smugglers/reports/{id}': {
    prepare: async (f) => ({ path: { id: await reportOf(f, 'author', 'draft') } }),
    expected: { ...everyone(404), author: [200], admin: [200] },
  },
  'POST /smugglers/reports': { prepare: async () => ({ body: REPORT }), expected: AUTHOR_WRITE },
  // On the caller's own report (the reporter's for anonymous, ordinary and admin).
  'PUT /smugglers/reports/{id}': {
    prepare: async (f, who) => ({ path: { id: await reportOf(f, who) }, body: { title: 'Renamed' } }),
    expected: AUTHOR_WRITE,
  },
  // A draft: someone else's is not there for an ordinary account (404).
  'POST /smugglers/reports/{id}/publish': {
    prepare: async (f, who) => ({ path: { id: await reportOf(f, who, 'draft') } }),
    expected: { ...AUTHOR_WRITE, ordinary: [404] },
  },
  'POST /smugglers/reports/{id}/archive': {
    prepare: async (f, who) => ({ path: { id: await reportOf(f, who) } }),
    expected: AUTHOR_WRITE,
  },
  // Someone else's report without a comment on it: no report of theirs to delete, no comment either (404).
  'DELETE /smugglers/reports/{id}': {
    prepare: async (f, who) => ({ path: { id: await reportOf(f, who) } }),
    expected: { ...AUTHOR_WRITE, ordinary: [404] },
  },
  'GET /smugglers/reports/{id}/comments': {
    prepare: async (f) => ({ path: { id: (await commentOf(f, 'author')).report } }),
    expected: everyone(200),
  },
  // The author in force comments; an admin does not comment on reports.
  'POST /smugglers/reports/{id}/comments': {
    prepare: async (f) => ({ path: { id: await reportOf(f, 'anonymous') }, body: { content: 'Worth it' } }),
    expected: { ...everyone(403), anonymous: [401], author: [200] },
  },
  // On the caller's own comment (the author's for anonymous, ordinary and admin): only its author edits.
  'PUT /smugglers/reports/{id}/comments/{commentId}': {
    prepare: async (f, who) => {
      const { report, comment } = await commentOf(f, who);
      return { path: { id: report, commentId: comment }, body: { content: 'Edited' } };
    },
    expected: { ...everyone(403), anonymous: [401], author: [200] },
  },
  'DELETE /smugglers/reports/{id}/comments/{commentId}': {
    prepare: async (f, who) => {
      const { report, comment } = await commentOf(f, who);
      return { path: { id: report, commentId: comment } };
    },
    expected: AUTHOR_WRITE,
  },
};

/** The endpoints whose access rule these rows state (GET /privilege/export has its own test: its answer is a stream). */
export const PRIVILEGE_MATRIX_KEYS = new Set([...Object.keys(PRIVILEGE_ROWS), 'GET /privilege/export']);
