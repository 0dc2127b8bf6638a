// Shared set-up of the assembly suites: a loadout whose attributes are computed by hand, publishing over REST, time units.
import * as assert from 'uvu/assert';
import type { TTestServer } from '../support/helpers';

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
