// Shared set-up of the write-safety suites (issue 16, items 4 to 7): their test servers, publishing an
// assembly, reading its row and its ETag, and assembly.edit on either surface.
import { TRPCClientError } from '@trpc/client';
import { eq } from 'drizzle-orm';
import * as assert from 'uvu/assert';
import { assemblies } from '../../db/schema';
import type { TTestServer } from '../support/helpers';
import { HULK, importCommunitySample } from '../support/community-sample';
import { signUpAdmin } from '../support/sign-up';
import { serverSuite } from '../support/server-suite';
import { trpcErrorShapeProblem } from '../support/surface-trpc';
import type { TSurface } from '../support/surfaces';

export type TUser = Awaited<ReturnType<TTestServer['signUp']>>;

/** What one edit answered, on either surface. */
interface TEditOutcome {
  status: number;
  message?: string;
  name?: string;
}

export const SURFACES: TSurface[] = ['REST', 'tRPC'];

/** assembly.edit on one surface; `ifMatch` goes as the If-Match header on REST and the ifMatch field on tRPC. */
export async function edit(
  app: TTestServer,
  surface: TSurface,
  token: string,
  uuid: string,
  data: Record<string, unknown>,
  ifMatch?: string,
): Promise<TEditOutcome> {
  if (surface === 'REST') {
    const response = await app.rest('POST', '/api/assembly/edit', {
      token,
      body: { uuid, data },
      headers: ifMatch === undefined ? undefined : { 'if-match': ifMatch },
    });
    return { status: response.status, message: response.body?.message, name: response.body?.data?.name };
  }
  try {
    const view = await app.trpc(token).assembly.edit.mutate({ uuid, data, ifMatch });
    return { status: 200, name: view.name };
  } catch (error) {
    if (!(error instanceof TRPCClientError)) throw error;
    // A 412 (or any refusal) must come back in tRPC's own error format.
    const problem = trpcErrorShapeProblem(error.shape, (error.meta?.response as Response | undefined)?.status);
    assert.is(problem, undefined, `tRPC error shape: ${problem}`);
    return { status: error.data?.httpStatus, message: error.message };
  }
}

export async function publishPrivate(app: TTestServer, owner: TUser, name: string, password: string): Promise<string> {
  const response = await app.rest('POST', '/api/assembly/publish', {
    token: owner.token,
    body: { ...HULK, name, isPublic: false, password },
  });
  assert.is(response.status, 200, response.text);
  return response.body.data.uuid;
}

export async function publishPublic(app: TTestServer, owner: TUser, name: string): Promise<string> {
  const response = await app.rest('POST', '/api/assembly/publish', { token: owner.token, body: { ...HULK, name } });
  assert.is(response.status, 200, response.text);
  return response.body.data.uuid;
}

export async function storedRow(app: TTestServer, uuid: string) {
  const row = await app.database.db.select().from(assemblies).where(eq(assemblies.uuid, uuid)).get();
  assert.ok(row, `assembly ${uuid} is stored`);
  return row!;
}

export async function itemEtag(
  app: TTestServer,
  token: string,
  uuid: string,
): Promise<{ etag: string; views: number; name: string }> {
  const response = await app.rest('GET', `/api/assembly/item?uuid=${uuid}`, { token });
  assert.is(response.status, 200, response.text);
  const etag = response.headers.get('etag');
  assert.ok(etag, 'the item answer carries an ETag');
  return { etag: etag!, views: response.body.data.views, name: response.body.data.name };
}

/** A suite on a test server holding the community sample, with two accounts: an owner and a reader. */
export function assemblySuite(name: string) {
  return serverSuite<{ owner: TUser; reader: TUser }>(name, {
    setUp: async (context) => {
      await importCommunitySample(context.app, await signUpAdmin(context.app));
      context.owner = await context.app.signUp();
      context.reader = await context.app.signUp();
    },
  });
}
