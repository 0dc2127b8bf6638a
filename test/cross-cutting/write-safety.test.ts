/**
 * Issue 16, item 4: concurrent edits that must all land (or be refused with a precondition), and the
 * If-Match guard of an edit. REST over real HTTP and native tRPC through the real @trpc/client.
 * Items 5 to 7 are in write-safety-signin.test.ts (a sign-in racing a password change),
 * write-safety-prototype.test.ts (keys of Object.prototype in URLs) and write-safety-restore.test.ts
 * (a restore that must not reveal someone else's trash).
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { createTRPCClient, httpLink } from '@trpc/client';
import superjson from 'superjson';
import * as assert from 'uvu/assert';
import type { AppRouter } from '../../server/router';
import type { TTestServer } from '../support/helpers';
import { trpcError } from '../support/http-clients';
import type { TSurface } from '../support/surfaces';
import {
  assemblySuite,
  edit,
  itemEtag,
  publishPrivate,
  publishPublic,
  SURFACES,
  storedRow,
  type TUser,
} from './write-safety-fixtures';

/** The status a reader gets for a private assembly with this password (200: it is the password). */
async function readWith(app: TTestServer, reader: TUser, uuid: string, password: string): Promise<number> {
  return (
    await app.rest('GET', `/api/assembly/item?uuid=${uuid}&password=${encodeURIComponent(password)}&force=true`, {
      token: reader.token,
    })
  ).status;
}

// ---------------------------------------------------------------------------------------------------
const Edits = assemblySuite('item 4: concurrent edits and If-Match');

Edits(
  'a password change (hashing) and a rename started while it hashes both land, on both surfaces',
  async ({ app, owner, reader }) => {
    // How long each edit takes here alone: the rename is started at points within the password change's
    // lead (its Argon2 hashing), so it commits while the password change is still hashing.
    const probe = await publishPrivate(app, owner, 'Probe', 'first-secret');
    const medianMs = async (data: Record<string, unknown>) => {
      const times: number[] = [];
      for (let i = 0; i < 3; i++) {
        const started = performance.now();
        assert.is((await edit(app, 'REST', owner.token, probe, data)).status, 200);
        times.push(performance.now() - started);
      }
      return times.sort((a, b) => a - b)[1]!;
    };
    const passwordMs = await medianMs({ password: 'probe-secret' });
    const renameMs = await medianMs({ name: 'Probe renamed' });
    const lead = Math.max(4, passwordMs - renameMs);
    const delays = [...new Set([0.1, 0.3, 0.5, 0.7].map((share) => Math.round(share * lead)).concat(15))];

    const renamedFirst: Record<TSurface, number> = { REST: 0, tRPC: 0 };
    let rounds = 0;
    // A busy machine can stretch either edit: the sweep of delays is run again (three sweeps at most)
    // until the rename has answered first on the surface; every round still checks both changes land.
    const schedule = [0, 1, 2].flatMap((sweep) => delays.map((delay) => ({ sweep, delay })));
    for (const surface of SURFACES) {
      for (const { sweep, delay } of schedule) {
        if (sweep > 0 && renamedFirst[surface] > 0) break;
        const uuid = await publishPrivate(app, owner, `Race ${surface} ${sweep} ${delay}`, 'first-secret');
        const finished: string[] = [];
        const passwordChange = edit(app, surface, owner.token, uuid, { password: 'second-secret' }).then((outcome) => {
          finished.push('password');
          return outcome;
        });
        await sleep(delay);
        const rename = edit(app, surface, owner.token, uuid, { name: `Renamed ${surface} ${sweep} ${delay}` }).then(
          (outcome) => {
            finished.push('rename');
            return outcome;
          },
        );
        const [a, b] = await Promise.all([passwordChange, rename]);
        const label = `${surface}, rename ${delay} ms after the password change`;
        assert.is(a.status, 200, `${label}: password change ${a.status} ${a.message}`);
        assert.is(b.status, 200, `${label}: rename ${b.status} ${b.message}`);
        if (finished[0] === 'rename') renamedFirst[surface]++;
        rounds++;
        const row = await storedRow(app, uuid);
        assert.is(row.name, `Renamed ${surface} ${sweep} ${delay}`, `${label}: the rename is kept`);
        assert.is(row.isPublic, false);
        assert.is(await readWith(app, reader, uuid, 'second-secret'), 200, `${label}: the new password opens it`);
        assert.is(await readWith(app, reader, uuid, 'first-secret'), 403, `${label}: the old password does not`);
      }
    }
    // The race was real on each surface: a rename committed while the password was being hashed.
    assert.ok(
      renamedFirst.REST > 0 && renamedFirst.tRPC > 0,
      `the rename never answered first: ${JSON.stringify(renamedFirst)}`,
    );
    console.log(
      `      concurrent edits: password change ${passwordMs.toFixed(0)} ms, rename ${renameMs.toFixed(0)} ms alone; ${rounds} rounds (rename ${delays.join('/')} ms after, REST and tRPC), ` +
        `rename answered first in ${renamedFirst.REST + renamedFirst.tRPC}; both changes kept in ${rounds}/${rounds}`,
    );
  },
);

Edits(
  'making it public during a password change never leaves a public assembly with a password',
  async ({ app, owner }) => {
    for (const surface of SURFACES) {
      const uuid = await publishPrivate(app, owner, `Public race ${surface}`, 'first-secret');
      const finished: string[] = [];
      const passwordChange = edit(app, surface, owner.token, uuid, { password: 'second-secret' }).then((outcome) => {
        finished.push('password');
        return outcome;
      });
      await sleep(15);
      const publicise = edit(app, surface, owner.token, uuid, { isPublic: true }).then((outcome) => {
        finished.push('public');
        return outcome;
      });
      const [a, b] = await Promise.all([passwordChange, publicise]);
      assert.is(b.status, 200, `${surface}: made public: ${b.message}`);
      const row = await storedRow(app, uuid);
      assert.is(row.isPublic, true, `${surface}: the isPublic edit is kept`);
      assert.is(row.passwordHash, null, `${surface}: a public assembly has no password`);
      // Checked again on the row as it is when written: a password no longer fits, as for a sequential call.
      if (finished[0] === 'public') {
        assert.is(a.status, 400, `${surface}: ${a.status} ${a.message}`);
        assert.match(a.message ?? '', /only a private assembly/);
      } else assert.is(a.status, 200);
    }
  },
);

Edits(
  'If-Match: the ETag of GET /assembly/item guards an edit on REST (header) and tRPC (ifMatch); 412 in each format',
  async ({ app, owner, reader }) => {
    const uuid = await publishPublic(app, owner, 'Guarded');
    const first = await itemEtag(app, owner.token, uuid);

    // A view does not change the ETag, so a conditional edit is not refused because someone read it.
    const read = await app.rest('GET', `/api/assembly/item?uuid=${uuid}`, { token: reader.token });
    assert.is(read.status, 200);
    const afterView = await itemEtag(app, owner.token, uuid);
    assert.ok(afterView.views > first.views, `a view was counted (${first.views} -> ${afterView.views})`);
    assert.is(afterView.etag, first.etag, 'the ETag leaves the view count out');

    // The native tRPC answer of getItem carries the same ETag header.
    let trpcEtag: string | null = null;
    const capturing = createTRPCClient<AppRouter>({
      links: [
        httpLink({
          url: `${app.url}/trpc`,
          transformer: superjson,
          headers: { authorization: `Bearer ${owner.token}` },
          fetch: async (url, init) => {
            const response = await fetch(url, init as RequestInit);
            trpcEtag = response.headers.get('etag');
            return response;
          },
        }),
      ],
    });
    await capturing.assembly.getItem.query({ uuid });
    assert.is(trpcEtag, first.etag, 'tRPC getItem sends the same ETag');

    const rest = await app.rest('POST', '/api/assembly/edit', {
      token: owner.token,
      body: { uuid, data: { name: 'Guarded 1' } },
      headers: { 'if-match': first.etag },
    });
    assert.is(rest.status, 200, rest.text);
    const second = rest.headers.get('etag');
    assert.ok(second && second !== first.etag, 'the edit answers with the new ETag');
    assert.is(
      (await itemEtag(app, owner.token, uuid)).etag,
      second,
      'the edit answer and GET /assembly/item agree on the ETag',
    );

    // The stale ETag: 412 on both surfaces, in each surface's format, nothing written.
    const staleRest = await app.rest('POST', '/api/assembly/edit', {
      token: owner.token,
      body: { uuid, data: { name: 'Lost' } },
      headers: { 'if-match': first.etag },
    });
    assert.is(staleRest.status, 412);
    assert.equal(Object.keys(staleRest.body), ['code', 'message', 'data']);
    assert.is(staleRest.body.code, 412);
    assert.match(staleRest.body.message, /changed since the ETag/);
    const staleTrpc = await edit(app, 'tRPC', owner.token, uuid, { name: 'Lost' }, first.etag);
    assert.is(staleTrpc.status, 412);
    assert.is(staleTrpc.message, staleRest.body.message, 'the same message on both surfaces');
    const code = (
      await trpcError(app.trpc(owner.token).assembly.edit.mutate({ uuid, data: { name: 'Lost' }, ifMatch: first.etag }))
    ).data.code;
    assert.is(code, 'PRECONDITION_FAILED');
    assert.is((await storedRow(app, uuid)).name, 'Guarded 1', 'a refused edit writes nothing');

    // The current ETag passes on tRPC; so do the strong form of the tag, a list naming it, and *.
    const viaTrpc = await edit(app, 'tRPC', owner.token, uuid, { name: 'Guarded 2' }, second!);
    assert.is(viaTrpc.status, 200, viaTrpc.message);
    const third = (await itemEtag(app, owner.token, uuid)).etag;
    assert.is(
      (await edit(app, 'REST', owner.token, uuid, { name: 'Guarded 3' }, third.replace(/^W\//, ''))).status,
      200,
      'strong form of the tag',
    );
    const fourth = (await itemEtag(app, owner.token, uuid)).etag;
    assert.is(
      (await edit(app, 'REST', owner.token, uuid, { name: 'Guarded 4' }, `W/"not-it", ${fourth}`)).status,
      200,
      'a list naming it',
    );
    assert.is((await edit(app, 'tRPC', owner.token, uuid, { name: 'Guarded 5' }, '*')).status, 200, '*');

    // Another user's like changes the answer, and so the ETag: a conditional edit must read again.
    const beforeLike = (await itemEtag(app, owner.token, uuid)).etag;
    assert.is((await app.rest('POST', '/api/assembly/like', { token: reader.token, body: { uuid } })).status, 200);
    assert.is(
      (await edit(app, 'REST', owner.token, uuid, { name: 'Guarded 6' }, beforeLike)).status,
      412,
      'a like changes the ETag',
    );

    // The header and the body field saying different things is a 400, not a guess.
    const both = await app.rest('POST', '/api/assembly/edit', {
      token: owner.token,
      body: { uuid, data: { name: 'Guarded 7' }, ifMatch: 'W/"something-else"' },
      headers: { 'if-match': (await itemEtag(app, owner.token, uuid)).etag },
    });
    assert.is(both.status, 400);
    assert.match(both.body.message, /ifMatch/);
    assert.is((await storedRow(app, uuid)).name, 'Guarded 5');
  },
);

Edits(
  'two conditional edits from one read, 15 ms apart: the first to commit wins, the other is a 412',
  async ({ app, owner, reader }) => {
    let refused = 0;
    for (const surface of SURFACES) {
      const uuid = await publishPrivate(app, owner, `Conditional ${surface}`, 'first-secret');
      const { etag } = await itemEtag(app, owner.token, uuid);
      const passwordChange = edit(app, surface, owner.token, uuid, { password: 'second-secret' }, etag);
      await sleep(15);
      const rename = edit(app, surface, owner.token, uuid, { name: `Conditional ${surface} renamed` }, etag);
      const [a, b] = await Promise.all([passwordChange, rename]);
      const statuses = [a.status, b.status].sort();
      assert.equal(
        statuses,
        [200, 412],
        `${surface}: one edit wins, one is refused (${a.status} ${a.message}, ${b.status} ${b.message})`,
      );
      const row = await storedRow(app, uuid);
      if (b.status === 200) {
        assert.is(row.name, `Conditional ${surface} renamed`);
        assert.is(
          await readWith(app, reader, uuid, 'first-secret'),
          200,
          `${surface}: the refused password change wrote nothing`,
        );
      } else {
        assert.is(row.name, `Conditional ${surface}`, `${surface}: the refused rename wrote nothing`);
        assert.is(await readWith(app, reader, uuid, 'second-secret'), 200);
      }
      refused++;
    }
    console.log(`      conditional edits from one ETag: ${refused} races (REST and tRPC), each one 200 and one 412`);
  },
);

Edits.run();
