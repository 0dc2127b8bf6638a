/**
 * A call's input on the native tRPC surface (issue 31, items 7 and 9): what superjson clients send is
 * read as before by the one checked reader (server/transformer.ts, deserializeInput) — undefined fields
 * and inputs, NaN and -0, shared references — through httpLink and httpBatchLink (the fast path) and
 * httpBatchStreamLink (tRPC's adapter). Malformed payloads are in trpc-input.test.ts and
 * trpc-input-raw.test.ts.
 */
import { createTRPCClient } from '@trpc/client';
import superjson from 'superjson';
import * as assert from 'uvu/assert';
import type { AppRouter } from '../../server/router';
import { serverSuite } from '../support/server-suite';
import { assertPlain400, LINKS, refusal, type TLinkName } from './trpc-input-fixtures';

const Input = serverSuite('tRPC input: what superjson clients send is read as before, on every link');

Input(
  'what superjson clients send is read as before: undefined fields and inputs, NaN and -0, shared references; on every link',
  async ({ app }) => {
    const user = await app.signUp();
    for (const link of Object.keys(LINKS) as TLinkName[]) {
      const client = createTRPCClient<AppRouter>({
        links: [
          LINKS[link]({
            url: `${app.url}/trpc`,
            transformer: superjson,
            headers: { authorization: `Bearer ${user.token}` },
          }),
        ],
      });
      const [list, health] = await Promise.all([
        client.assembly.list.query({ page: undefined, pageSize: 5 }),
        client.health.get.query(),
      ]);
      assert.is(list.pagination.pageSize, 5, link);
      assert.is(health.status, 'ok', link);
      // NaN is read as NaN ("number" annotation), which the schema then refuses in its own words.
      assertPlain400(
        await refusal(client.assembly.list.query({ page: Number.NaN })),
        /^Invalid input: page: must be an integer/,
        `${link}: NaN`,
      );
      // The same point twice (referentialEqualities) and -0 (a "number" annotation).
      const point = { title: 'Cove', latitude: -0, longitude: 20 };
      const created = await client.map.create.mutate({ title: `Shared ${link}`, points: [point, point] });
      const stored = await app.rest('GET', `/api/map/collection/${created.uuid}`, { token: user.token });
      assert.is(stored.body.data.points.length, 2, link);
      assert.equal(
        stored.body.data.points.map((one: { latitude: number }) => one.latitude),
        [0, 0],
        link,
      );
    }
  },
);

Input.run();
