// The accounts the smugglers' suites act as: an admin, a report author holding every right
// (smuggler_weekly_report_ownership), a connoisseur holding the comment rights, and an ordinary account.
import { startTestServer, type TTestServer } from '../support/helpers';
import { signUpAdmin } from '../support/sign-up';

export type TUser = Awaited<ReturnType<TTestServer['signUp']>>;

export interface TSmugglers {
  app: TTestServer;
  admin: TUser;
  author: TUser;
  connoisseur: TUser;
  ordinary: TUser;
}

export const WEEK = { startTime: '2026-03-02T00:00:00.000Z', endTime: '2026-03-09T00:00:00.000Z' };

export async function grant(app: TTestServer, admin: TUser, user: TUser, types: string[]): Promise<void> {
  for (const privilegeType of types) {
    const response = await app.rest('POST', '/api/privilege/grant', {
      token: admin.token,
      body: { userId: user.id, privilegeType },
    });
    if (response.status !== 200) throw new Error(`grant ${privilegeType}: ${response.text}`);
  }
}

export async function setUpSmugglers(
  context: Partial<TSmugglers>,
  overrides: Parameters<typeof startTestServer>[0] = {},
): Promise<void> {
  const app = await startTestServer(overrides);
  context.app = app;
  context.admin = await signUpAdmin(app);
  context.author = await app.signUp();
  context.connoisseur = await app.signUp();
  context.ordinary = await app.signUp();
  await grant(app, context.admin, context.author, ['smuggler', 'smuggler_weekly_report_ownership']);
  await grant(app, context.admin, context.connoisseur, [
    'smuggler',
    'smuggler_weekly_report_comment_create',
    'smuggler_weekly_report_comment_update',
    'smuggler_weekly_report_comment_delete',
  ]);
}

/** A report of `author`'s, published unless said otherwise; its id. */
export async function report(app: TTestServer, author: TUser, fields: Record<string, unknown> = {}): Promise<number> {
  const response = await app.rest('POST', '/api/smugglers/reports', {
    token: author.token,
    body: {
      title: 'Weekly wares',
      content: { weekly: [{ id: 'culverin1', worth: 900 }] },
      ...WEEK,
      status: 'published',
      ...fields,
    },
  });
  if (response.status !== 200) throw new Error(`report: ${response.text}`);
  return response.body.data.id;
}
