// Likes and ratings over HTTP: toggles, ranges and who may vote, on both surfaces (the formula in process: service.test.ts).
import { suite } from '../support/suite';
import * as assert from 'uvu/assert';
import { startTestServer, type TTestServer } from '../support/helpers';
import { HULK, importCommunitySample } from '../support/community-sample';
import { batchClient, trpcError } from '../support/http-clients';
import { signUpAdmin } from '../support/sign-up';
import { publish, type TUser } from './fixtures';

const Votes = suite<{ app: TTestServer; owner: TUser; fan: TUser }>('like and rate');

Votes.before(async (context) => {
  context.app = await startTestServer();
  await importCommunitySample(context.app, await signUpAdmin(context.app));
  context.owner = await context.app.signUp();
  context.fan = await context.app.signUp();
});
Votes.after(async ({ app }) => app.stop());

Votes('one like per user, idempotent, can be taken back', async ({ app, owner, fan }) => {
  const created = await publish(app, owner.token, HULK);
  const like = (body: Record<string, unknown>) =>
    app.rest('POST', '/api/assembly/like', { token: fan.token, body: { uuid: created.uuid, ...body } });
  assert.equal((await like({})).body.data, { uuid: created.uuid, liked: true, likes: 1 });
  assert.equal((await like({ like: true })).body.data.likes, 1);
  assert.equal((await like({ like: false })).body.data, { uuid: created.uuid, liked: false, likes: 0 });
  assert.equal((await app.trpc(fan.token).assembly.like.mutate({ uuid: created.uuid })).likes, 1);
  assert.is((await app.rest('GET', `/api/assembly/item?uuid=${created.uuid}`)).body.data.likes, 1);
});

Votes('one rating per user, changeable, 1 to 5', async ({ app, owner, fan }) => {
  const created = await publish(app, owner.token, HULK);
  const rate = (score: unknown) =>
    app.rest('POST', '/api/assembly/rate', { token: fan.token, body: { uuid: created.uuid, score } });
  assert.equal((await rate(5)).body.data, {
    uuid: created.uuid,
    yourScore: 5,
    rating: { average: 5, count: 1, smoothed: 3.33 },
  });
  // (2 + 15) / 6 = 2.83
  assert.equal((await rate(2)).body.data.rating, { average: 2, count: 1, smoothed: 2.83 });
  for (const bad of [0, 6, 2.5, 'five']) {
    const response = await rate(bad);
    assert.is(response.status, 400, String(bad));
    assert.match(response.body.message, /score/);
  }
  assert.is((await trpcError(app.trpc(fan.token).assembly.rate.mutate({ uuid: created.uuid, score: 9 }))).status, 400);
  assert.equal((await app.trpc(fan.token).assembly.rate.mutate({ uuid: created.uuid, score: 4 })).rating.average, 4);
});

Votes('401 without token, 403 on your own or an unreadable private one, 404 unknown', async ({ app, owner, fan }) => {
  const created = await publish(app, owner.token, HULK);
  const hidden = await publish(app, owner.token, { ...HULK, isPublic: false, password: 'open-sesame' });
  assert.is((await app.rest('POST', '/api/assembly/like', { body: { uuid: created.uuid } })).status, 401);
  assert.is((await app.rest('POST', '/api/assembly/rate', { body: { uuid: created.uuid, score: 3 } })).status, 401);
  assert.is((await trpcError(app.trpc().assembly.like.mutate({ uuid: created.uuid }))).status, 401);
  assert.is(
    (await app.rest('POST', '/api/assembly/like', { token: owner.token, body: { uuid: created.uuid } })).status,
    403,
  );
  assert.is(
    (await trpcError(app.trpc(owner.token).assembly.rate.mutate({ uuid: created.uuid, score: 5 }))).status,
    403,
  );
  assert.is(
    (await app.rest('POST', '/api/assembly/like', { token: fan.token, body: { uuid: hidden.uuid } })).status,
    403,
  );
  assert.is(
    (
      await app.rest('POST', '/api/assembly/like', {
        token: fan.token,
        body: { uuid: hidden.uuid, password: 'open-sesame' },
      })
    ).status,
    200,
  );
  assert.is(
    (
      await app.rest('POST', '/api/assembly/like', {
        token: fan.token,
        body: { uuid: '00000000-0000-4000-8000-000000000000' },
      })
    ).status,
    404,
  );
});

Votes(
  'ratings per call: a batch of changes by one user and concurrent ones by many keep the totals their rows give; raters racing a trash get a 200 (counted) or a 404',
  async ({ app, owner }) => {
    const created = await publish(app, owner.token, HULK);
    const raters = await Promise.all(Array.from({ length: 6 }, () => app.signUp()));
    // One user's five changes in one tRPC batch: applied one after the other, the last one stays.
    const first = batchClient(app.url, { token: raters[0]!.token });
    const scores = [1, 2, 3, 4, 5];
    const answers = await Promise.all(
      scores.map((score) => first.client.assembly.rate.mutate({ uuid: created.uuid, score })),
    );
    assert.is(first.sent.requests, 1, 'one batch');
    assert.equal(answers.at(-1)!.rating, { average: 5, count: 1, smoothed: 3.33 });
    // The others at once over REST: each counted once.
    const rated = await Promise.all(
      raters.slice(1).map((rater, index) =>
        app.rest('POST', '/api/assembly/rate', {
          token: rater.token,
          body: { uuid: created.uuid, score: 1 + index },
        }),
      ),
    );
    assert.ok(rated.every((response) => response.status === 200));
    const item = await app.rest('GET', `/api/assembly/item?uuid=${created.uuid}`);
    // 5 + 1 + 2 + 3 + 4 + 5 = 20 over 6 ratings.
    assert.equal([item.body.data.rating.count, item.body.data.rating.average], [6, 3.33]);
    // The owner trashes it while they rate: a rating either came first (200, counted) or is a 404.
    const other = await publish(app, owner.token, HULK);
    const [trashed, ...late] = await Promise.all([
      app.trpc(owner.token).assembly.delete.mutate({ uuid: other.uuid }),
      ...raters.map((rater) =>
        app
          .trpc(rater.token)
          .assembly.rate.mutate({ uuid: other.uuid, score: 3 })
          .then(() => 200)
          .catch((error: { data?: { httpStatus?: number } }) => error.data?.httpStatus),
      ),
    ]);
    assert.ok(trashed);
    assert.ok(
      late.every((status) => status === 200 || status === 404),
      late.join(' '),
    );
    const restored = await app.rest('POST', '/api/assembly/restore', {
      token: owner.token,
      body: { uuid: other.uuid },
    });
    assert.is(restored.status, 200, restored.text);
    const after = await app.rest('GET', `/api/assembly/item?uuid=${other.uuid}`);
    assert.is(after.body.data.rating.count, late.filter((status) => status === 200).length);
  },
);

Votes.run();
