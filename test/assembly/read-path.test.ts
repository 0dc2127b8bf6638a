// The uncached read path's shortcuts (issue 38) give what the longer ways gave: the timestamps of
// isoTime as toISOString writes them, search candidates in the same order without a sort, and the
// list and item answers and the item's ETag on both surfaces as the old mapping made them.
import { suite } from '../support/suite';
import * as assert from 'uvu/assert';
import { isoTime } from '../../server/domains/assembly/iso-time';
import { itemEtag, rowsOf, selectRows, toView } from '../../server/domains/assembly/queries';
import { candidateIds, ftsQuery, inOrder, searchMatch } from '../../server/domains/assembly/search';
import type { TAssemblyView } from '../../server/domains/assembly/schemas';
import { startTestServer, type TTestServer } from '../support/helpers';
import { HULK, importCommunitySample } from '../support/community-sample';
import { signUpAdmin } from '../support/sign-up';
import { BRIGANTINE, DAY, publish } from './fixtures';

const YEAR_10000_MS = Date.UTC(10000, 0, 1);

const Pure = suite('read path helpers give what they replace');

Pure(
  'isoTime writes what toISOString writes: random instants, day, month, leap and century edges, the fallbacks',
  () => {
    const instants: number[] = [0, 1, 999, 1000, 86_399_999, 86_400_000, YEAR_10000_MS - 1];
    for (let i = 0; i < 200_000; i++) instants.push(Math.floor(Math.random() * YEAR_10000_MS));
    for (const year of [1970, 1999, 2000, 2024, 2025, 2100, 2400, 9999]) {
      for (let month = 0; month < 12; month++) {
        const first = Date.UTC(year, month, 1);
        instants.push(first - 1, first, first + 1, first + 86_399_999);
      }
    }
    for (const ms of instants) assert.is(isoTime(new Date(ms)), new Date(ms).toISOString(), String(ms));
    // Outside 1970 to 9999 toISOString writes it (negative and six-digit years).
    for (const ms of [-1, -86_400_001, Date.UTC(-5, 0, 1), YEAR_10000_MS, 8.64e15]) {
      assert.is(isoTime(new Date(ms)), new Date(ms).toISOString(), String(ms));
    }
    assert.throws(() => isoTime(new Date(Number.NaN)), RangeError);
  },
);

Pure('candidates already in order are kept as they are, any other order is sorted: the same ids either way', () => {
  const random = (n: number) => Array.from({ length: n }, () => Math.floor(Math.random() * 50));
  const arrays: number[][] = [[], [7], [3, 3, 3], [5, 4, 4, 1], [1, 2, 2, 9], [2, 1, 3]];
  for (let i = 0; i < 2000; i++) {
    const values = random(1 + (i % 40));
    arrays.push(
      values,
      [...values].sort((a, b) => a - b),
      [...values].sort((a, b) => b - a),
    );
  }
  for (const ids of arrays) {
    for (const direction of ['asc', 'desc'] as const) {
      const compare = direction === 'asc' ? (a: number, b: number) => a - b : (a: number, b: number) => b - a;
      const sorted = [...ids].sort(compare);
      assert.is(
        inOrder(ids, direction),
        ids.every((id, i) => id === sorted[i]),
        `${direction} ${ids}`,
      );
    }
  }
});

Pure.run();

interface TCtx {
  app: TTestServer;
}

const Answers = suite<TCtx>('list and item answers and ETags as the old mapping made them, both surfaces');

Answers.before(async (context) => {
  context.app = await startTestServer();
  await importCommunitySample(context.app, await signUpAdmin(context.app));
  // Timestamps across a leap day, a month's and a year's end, milliseconds that need padding.
  context.app.clock.advance(Date.UTC(2028, 1, 29, 23, 59, 59, 7) - Date.now());
  for (let i = 0; i < 12; i++) {
    // A fresh account each time: the clock's jumps outlive a session.
    const { token } = await context.app.signUp();
    await publish(context.app, token, {
      ...(i % 2 ? HULK : BRIGANTINE),
      name: `Readpath ${i}`,
      tags: ['readpath', `n${i}`],
    });
    context.app.clock.advance(DAY * 31 + 3_600_000 * 7 + 61_003 * i);
  }
});
Answers.after(async ({ app }) => {
  await app.stop();
});

/** The old mapping's timestamps: toISOString of the row's dates. */
function oldTimes(row: { createdAt: Date; updatedAt: Date }) {
  return { createdTime: row.createdAt.toISOString(), updatedTime: row.updatedAt.toISOString() };
}

Answers('every summary and item, over REST and native tRPC, and the item ETag', async ({ app }) => {
  const rows = rowsOf(await selectRows(app.database.db).values()).filter((row) => row.name.startsWith('Readpath'));
  assert.is(rows.length, 12);
  const byUuid = new Map(rows.map((row) => [row.uuid, row]));
  const rest = (await app.rest('GET', '/api/assembly/list?keyword=readpath&pageSize=20')).body.data.data;
  const trpc = (await app.trpc().assembly.list.query({ keyword: 'readpath', pageSize: 20 })).data;
  assert.is(rest.length, 12);
  assert.equal(trpc, rest);
  for (const summary of rest) {
    const row = byUuid.get(summary.uuid)!;
    assert.equal({ createdTime: summary.createdTime, updatedTime: summary.updatedTime }, oldTimes(row));
    assert.ok(summary.createdTime.endsWith('Z') && summary.createdTime.length === 24, summary.createdTime);
  }
  for (const row of rows) {
    const response = await app.rest('GET', `/api/assembly/item?uuid=${row.uuid}`);
    const viaTrpc = await app.trpc().assembly.getItem.query({ uuid: row.uuid });
    const { views: _restViews, ...restStable } = response.body.data as TAssemblyView;
    const { views: _trpcViews, ...trpcStable } = viaTrpc as TAssemblyView;
    assert.equal(trpcStable, restStable);
    const old: TAssemblyView = { ...toView(row), ...oldTimes(row), views: response.body.data.views };
    assert.equal({ createdTime: restStable.createdTime, updatedTime: restStable.updatedTime }, oldTimes(row));
    assert.is(response.headers.get('etag'), itemEtag(old), row.name);
  }
});

Answers('search candidates come in the order a sort gives, both directions', async ({ app }) => {
  const match = searchMatch(ftsQuery('readpath')!, null);
  for (const direction of ['asc', 'desc'] as const) {
    const ids = await candidateIds(app.database.db, direction, match, 1001);
    assert.is(ids.length, 12);
    assert.equal(ids, [...ids].sort(direction === 'asc' ? (a, b) => a - b : (a, b) => b - a));
  }
});

Answers.run();
