// State of war, retention (HTTP and the job): old snapshots are thinned to one per hour, recent ones kept, and
// a second run deletes nothing. The set-up loads the reference data, the live season's two snapshots and the
// bucketing fixture of y2s4 (502 snapshots over 203 hours).
import { count, eq } from 'drizzle-orm';
import * as assert from 'uvu/assert';
import { warSnapshots } from '../../db/schema';
import { JOBS } from '../../server/jobs';
import { warSuite } from './fixtures';

const War = warSuite('state of war: retention', 'snapshots');

War(
  'retention thins old snapshots to one per hour, keeps recent ones, and is idempotent',
  async ({ app, admin, user }) => {
    const warThinJob = JOBS.find((job) => job.name === 'war-snapshot-thinning');
    assert.ok(warThinJob, 'the thinning job runs with the server');
    assert.is((await app.rest('POST', '/api/admin/war/thin', { token: user, body: {} })).status, 403);
    // The fixture spans 2025-11-09T00 to 2025-11-17T10: 203 hours, one snapshot kept in each.
    const thinned = await app.rest('POST', '/api/admin/war/thin', { token: admin, body: { olderThanDays: 30 } });
    assert.is(thinned.status, 200);
    assert.is(thinned.body.data.deleted, 502 - 203);
    const history = await app.trpc().war.getHistory.query({ range: '7d', season: 'y2s4' });
    assert.is(history.lastSnapshotAt, '2025-11-17T10:00:00.000Z', 'the first snapshot of the last hour is kept');
    assert.ok(
      history.buckets.every((bucket) => bucket.snapshotCount === 1),
      'the 7d range stays complete',
    );
    assert.is((await app.trpc().war.getLatest.query({})).companies.length, 2, 'recent snapshots are untouched');
    const again = await warThinJob!.run(app.database.db, app.app.deps);
    assert.equal((again as { deleted: number }).deleted, 0);
    const current = await app.database.db
      .select({ n: count() })
      .from(warSnapshots)
      .where(eq(warSnapshots.seasonId, 'y9s1'))
      .get();
    assert.is(current!.n, 2);
  },
);

War.run();
