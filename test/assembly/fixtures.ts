// Shared set-up of the assembly suites: a loadout whose attributes are computed by hand, publishing over REST, time units,
// suites on a server holding the community sample catalog, the web client's publish form, listing over REST,
// and the in-process suite of the service tests (service.test.ts, service-edits.test.ts).
import { eq, sql } from 'drizzle-orm';
import * as assert from 'uvu/assert';
import { assemblies } from '../../db/schema';
import { startInProcess, type TCaller, type TInProcessApp } from '../support/caller';
import type { TTestServer } from '../support/helpers';
import { COMMUNITY_SAMPLE, importCommunitySample } from '../support/community-sample';
import { signUpAdmin } from '../support/sign-up';
import { serverSuite, type TServerConfig } from '../support/server-suite';
import { suite } from '../support/suite';

export const DAY = 24 * 60 * 60 * 1000;
export const HOUR = 60 * 60 * 1000;

export type TUser = Awaited<ReturnType<TTestServer['signUp']>>;

/** The brigantine loadout whose attributes are computed by hand in publish-and-attr.test.ts. */
export const BRIGANTINE = {
  name: 'Brigantine all-rounder',
  shipId: 'brigantine',
  weapons: [
    { slot: 'leftSideWeapon' as const, itemId: 'culverin1' },
    { slot: 'rightSideWeapon' as const, itemId: 'demicannon1' },
    { slot: 'frontWeapon' as const, itemId: 'longGun1' },
    { slot: 'aftWeapon' as const, itemId: 'torpedo1' },
    { slot: 'auxiliaryWeapon' as const, itemId: 'ballista1' },
  ],
  armor: 'ironHusk1',
  furnitures: ['firstAidStation', 'culverinWorks1', 'maintenanceForge1'],
  tags: ['PvP', 'Broadside'],
  description: 'A bit of everything',
};

/** Publishes over REST and returns the assembly (a 200 is asserted). */
export async function publish(app: TTestServer, token: string, body: Record<string, unknown>) {
  const response = await app.rest('POST', '/api/assembly/publish', { token, body });
  assert.is(response.status, 200, response.text);
  return response.body.data;
}

/** An item answer that is readable (not the locked answer of a private assembly read without its password): asserted, and narrowed. */
export function readable<T extends { isVisibility: boolean }>(item: T): Extract<T, { isVisibility: true }> {
  assert.ok(item.isVisibility, `expected a readable assembly, got ${JSON.stringify(item).slice(0, 200)}`);
  return item as Extract<T, { isVisibility: true }>;
}

/**
 * A suite on a test server (with `overrides` of its config) holding the community sample catalog: `setUp`, given the
 * server and its admin, answers what it adds to the suite's context (accounts, assemblies).
 */
export function catalogSuite<T extends object>(
  name: string,
  setUp: (app: TTestServer, admin: TUser) => Promise<T>,
  config: TServerConfig = {},
) {
  return serverSuite<T>(name, {
    config,
    setUp: async (context) => {
      const admin = await signUpAdmin(context.app);
      await importCommunitySample(context.app, admin);
      Object.assign(context, await setUp(context.app, admin));
    },
  });
}

/** A catalogSuite with two accounts, owner and other. */
export function ownerAndOtherSuite(name: string, config: TServerConfig = {}) {
  return catalogSuite(name, async (app) => ({ owner: await app.signUp(), other: await app.signUp() }), config);
}

/** BRIGANTINE in the web client's form (its `assembly.data`), with fields the catalog does not describe. */
export const BRIGANTINE_CLIENT_DATA = {
  shipSlot: { id: 'brigantine' },
  weaponSlots: [{ id: 'culverin1' }, { id: 'demicannon1' }, { id: 'longGun1' }, { id: 'torpedo1' }, null],
  weaponDirections: ['leftSideWeapon', 'rightSideWeapon', 'frontWeapon', 'aftWeapon', null],
  secondaryWeaponSlots: [{ id: 'ballista1' }],
  armorSlot: { id: 'ironHusk1' },
  displaySlots: [{ id: 'firstAidStation' }, { id: 'culverinWorks1' }, { id: 'maintenanceForge1' }],
  weaponModifications: [{ slot: 0, perk: 'sharpened' }],
  __version: '0.2.0',
};

/** What the client's Publish view sends (src/views/assembly/Publish.vue:30-52, 99-117), for BRIGANTINE. */
export function clientPublish(overrides: { visibility?: string; password?: string } = {}) {
  return {
    name: BRIGANTINE.name,
    description: BRIGANTINE.description,
    assembly: {
      visibility: overrides.visibility ?? 'publicly',
      tags: BRIGANTINE.tags,
      attr: {
        password: overrides.password ?? '',
        assemblyUseVersion: '0.2.0',
        language: 'en-US',
        isComment: true,
        isLike: true,
      },
      data: BRIGANTINE_CLIENT_DATA,
    },
    wheel: { attr: { wheelUseVersion: '0.1.0' }, data: { slots: [1, 2, 3] } },
    warehouse: { attr: { warehouseUseVersion: '0.1.0' }, data: null },
  };
}

/** GET /api/assembly/list with `query`, asserting a 200, and answers its data. */
export async function list(app: TTestServer, query: string) {
  const response = await app.rest('GET', `/api/assembly/list?${query}`);
  assert.is(response.status, 200, response.text);
  return response.body.data;
}

/** The names of listed items, in order. */
export const names = (items: { name: string }[]) => items.map((item) => item.name);

/** A catalogSuite with three accounts, owner, fan and other. */
export function ownerFanAndOtherSuite(name: string, config: TServerConfig = {}) {
  return catalogSuite(
    name,
    async (app) => ({ owner: await app.signUp(), fan: await app.signUp(), other: await app.signUp() }),
    config,
  );
}

/** A catalogSuite with an owner and two fans. */
export function ownerAndFansSuite(name: string, config: TServerConfig = {}) {
  return catalogSuite(
    name,
    async (app) => ({ owner: await app.signUp(), fans: [await app.signUp(), await app.signUp()] }),
    config,
  );
}

/** A uuid no assembly has. */
export const UNKNOWN = '00000000-0000-4000-8000-000000000000';

/** GET /api/assembly/item over REST (anonymous unless a token is given), asserting a 200 and a readable answer. */
export async function readItem(app: TTestServer, uuid: string, token?: string) {
  const response = await app.rest('GET', `/api/assembly/item?uuid=${uuid}`, { token });
  assert.is(response.status, 200, response.text);
  return readable(response.body.data);
}

/** What fork_count must be: the forks by other users that are not purged, counted from the rows. */
export async function countedForks(app: TTestServer, uuid: string): Promise<{ stored: number; counted: number }> {
  const row = await app.database.db
    .select({ id: assemblies.id, creatorId: assemblies.creatorId, forkCount: assemblies.forkCount })
    .from(assemblies)
    .where(eq(assemblies.uuid, uuid))
    .get();
  const counted = await app.database.db.get<{ n: number }>(
    sql`select count(*) as n from assemblies where cloned_from_id = ${row!.id} and creator_id <> ${row!.creatorId}`,
  );
  return { stored: row!.forkCount, counted: Number(counted?.n ?? 0) };
}

/** The query of GET /likes/check and /likes/count for an assembly, with `extra` appended. */
export const likeQuery = (uuid: string, extra = '') => `targetType=assembly&targetId=${uuid}${extra}`;

/** The context of an in-process assembly suite: the app, an owner and two fans (callers signed in). */
export interface TInProcessContext {
  app: TInProcessApp;
  owner: TCaller;
  fans: TCaller[];
}

/**
 * A suite calling the procedures in process (test/support/caller.ts): a fresh database holding the community
 * sample catalog (imported by an admin), an owner and two fans; closed after.
 */
export function inProcessSuite(name: string) {
  const tests = suite<TInProcessContext>(name);
  tests.before(async (context) => {
    context.app = await startInProcess();
    const admin = (await context.app.signUp({ role: 'admin' })).caller;
    await admin.admin.catalog.import(COMMUNITY_SAMPLE);
    context.owner = (await context.app.signUp()).caller;
    context.fans = [(await context.app.signUp()).caller, (await context.app.signUp()).caller];
  });
  tests.after(({ app }) => {
    app.close();
  });
  return tests;
}

export type TFailure = Error & { code?: string; issues?: { path: string; message: string }[] };

/** The error a call in process fails with (its tRPC code, message and issues); throws if it succeeds. */
export const errorOf = async (call: Promise<unknown>): Promise<TFailure> => {
  try {
    await call;
  } catch (error) {
    return error as TFailure;
  }
  throw new Error('expected the call to fail');
};
