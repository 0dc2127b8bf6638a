/**
 * Issue 16, item 7: a restore must not reveal someone else's trash: a non-creator's restore of a
 * trashed assembly answers as for an unknown one. REST over real HTTP and native tRPC through the real
 * @trpc/client.
 */
import * as assert from 'uvu/assert';
import { trpcError } from '../support/http-clients';
import { assemblySuite, publishPublic, storedRow } from './write-safety-fixtures';

const Restore = assemblySuite("item 7: restore reveals nothing of another user's trash");

Restore(
  "a non-creator's restore is the 404 of an unknown assembly, on both surfaces; the creator's works",
  async ({ app, owner, reader: other }) => {
    const trashed = await publishPublic(app, owner, 'Binned');
    const active = await publishPublic(app, owner, 'Afloat');
    assert.is(
      (await app.rest('POST', '/api/assembly/delete', { token: owner.token, body: { uuid: trashed } })).status,
      200,
    );
    const unknown = '4d7f4a8e-2b1c-4e5f-9a6b-0c1d2e3f4a5b';

    const restRestore = async (uuid: string) =>
      (await app.rest('POST', '/api/assembly/restore', { token: other.token, body: { uuid } })).body;
    const trpcRestore = (uuid: string) => trpcError(app.trpc(other.token).assembly.restore.mutate({ uuid }));
    const expected = (uuid: string) => ({
      code: 404,
      message: `Assembly ${uuid} is not in the trash`,
      data: { key: 'request.notFound' },
    });
    for (const uuid of [trashed, active, unknown]) {
      assert.equal(await restRestore(uuid), expected(uuid), 'REST');
      const answer = await trpcRestore(uuid);
      assert.is(answer.status, 404);
      assert.is(answer.message, expected(uuid).message, 'tRPC');
    }
    // Edit, delete and item of the trashed one say 404 too.
    assert.is(
      (
        await app.rest('POST', '/api/assembly/edit', {
          token: other.token,
          body: { uuid: trashed, data: { name: 'x' } },
        })
      ).status,
      404,
    );
    assert.is(
      (await app.rest('POST', '/api/assembly/delete', { token: other.token, body: { uuid: trashed } })).status,
      404,
    );
    assert.is((await app.rest('GET', `/api/assembly/item?uuid=${trashed}`, { token: other.token })).status, 404);
    assert.is((await storedRow(app, trashed)).deletedAt !== null, true, 'still in the trash');

    const restored = await app.trpc(owner.token).assembly.restore.mutate({ uuid: trashed });
    assert.is(restored.name, 'Binned');
    assert.is((await storedRow(app, trashed)).deletedAt, null);
    assert.is(
      (await app.rest('POST', '/api/assembly/restore', { token: owner.token, body: { uuid: trashed } })).status,
      404,
      'not in the trash any more',
    );
  },
);

Restore.run();
