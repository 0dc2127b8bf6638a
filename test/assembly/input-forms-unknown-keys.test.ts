// The input forms of the assembly calls (issue 18): an unknown field is refused with a 400 naming it, on
// every input (bodies, nested objects of the contract's and the web client's forms, query strings) and on
// both surfaces.
import * as assert from 'uvu/assert';
import { HULK } from '../support/community-sample';
import { trpcError } from '../support/http-clients';
import { BRIGANTINE_CLIENT_DATA, clientPublish, ownerAndOtherSuite, publish } from './fixtures';

const UnknownKeys = ownerAndOtherSuite('assembly input forms: unknown fields');

UnknownKeys(
  'an unknown field is a 400 naming it, on every input (bodies, nested objects, query strings) and both surfaces',
  async ({ app, owner }) => {
    const created = await publish(app, owner.token, HULK);
    const named = (response: { status: number; body: any }, key: string, path = '') => {
      assert.is(response.status, 400, JSON.stringify(response.body));
      assert.ok(response.body.message.includes(`Unrecognized key: "${key}"`), response.body.message);
      assert.equal(response.body.data.issues, [{ path, message: `Unrecognized key: "${key}"` }]);
    };
    named(
      await app.rest('POST', '/api/assembly/publish', { token: owner.token, body: { ...HULK, colour: 'red' } }),
      'colour',
    );
    named(
      await app.rest('POST', '/api/assembly/publish', {
        token: owner.token,
        body: { ...HULK, weapons: [{ slot: 'leftSideWeapon', itemId: 'demicannon1', count: 2 }] },
      }),
      'count',
      'weapons[0]',
    );
    named(
      await app.rest('POST', '/api/assembly/publish', {
        token: owner.token,
        body: { ...clientPublish(), assembly: { ...clientPublish().assembly, attr: { isGlowing: true } } },
      }),
      'isGlowing',
      'assembly.attr',
    );
    named(
      await app.rest('POST', '/api/assembly/publish', {
        token: owner.token,
        body: {
          ...clientPublish(),
          assembly: { ...clientPublish().assembly, data: { ...BRIGANTINE_CLIENT_DATA, sails: [] } },
        },
      }),
      'sails',
      'assembly.data',
    );
    named(
      await app.rest('POST', '/api/assembly/edit', {
        token: owner.token,
        body: { uuid: created.uuid, data: { name: 'x', colour: 'red' } },
      }),
      'colour',
      'data',
    );
    named(
      await app.rest('POST', '/api/assembly/edit', {
        token: owner.token,
        body: { uuid: created.uuid, name: 'x', colour: 'red' },
      }),
      'colour',
    );
    named(
      await app.rest('POST', '/api/assembly/delete', { token: owner.token, body: { uuid: created.uuid, hard: true } }),
      'hard',
    );
    named(
      await app.rest('POST', '/api/assembly/like', { token: owner.token, body: { uuid: created.uuid, twice: true } }),
      'twice',
    );
    named(
      await app.rest('POST', '/api/assembly/rate', {
        token: owner.token,
        body: { uuid: created.uuid, score: 5, weight: 2 },
      }),
      'weight',
    );
    named(await app.rest('GET', `/api/assembly/item?uuid=${created.uuid}&colour=red`), 'colour');
    named(await app.rest('GET', `/api/assembly/attr?uuid=${created.uuid}&colour=red`), 'colour');
    named(await app.rest('GET', '/api/assembly/list?colour=red'), 'colour');
    named(await app.rest('GET', '/api/assembly/trash?colour=red', { token: owner.token }), 'colour');
    const trpc = await trpcError(app.trpc(owner.token).assembly.publish.mutate({ ...HULK, colour: 'red' } as never));
    assert.is(trpc.status, 400);
    assert.match(trpc.message, /Unrecognized key: "colour"/);
  },
);

UnknownKeys.run();
