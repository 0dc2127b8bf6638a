/**
 * Issue 16, item 6: keys of Object.prototype in URLs (paths, query strings), in tRPC inputs and as the
 * keys of a catalog import: each one is an ordinary unknown name or plain data, never a prototype.
 */
import { eq } from 'drizzle-orm';
import * as assert from 'uvu/assert';
import { catalogHulls } from '../../db/schema';
import { startTestServer, type TTestServer } from '../support/helpers';
import { COMMUNITY_SAMPLE } from '../support/community-sample';
import { signUpAdmin } from '../support/sign-up';
import { suite } from '../support/suite';
import { serverSuite } from '../support/server-suite';

const Prototype = suite<{ app: TTestServer; errors: unknown[] }>('item 6: keys of Object.prototype in URLs');

const LIMIT = 8;
const PROTOTYPE_KEYS = ['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf', '__defineGetter__'];

Prototype.before(async (context) => {
  context.app = await startTestServer({ RATE_LIMIT_GLOBAL: LIMIT });
  context.errors = [];
  // Every 5xx is logged through deps.logger.error (app.ts): count what reaches it.
  const logger = context.app.app.deps.logger as unknown as { error: (...args: unknown[]) => void };
  const original = logger.error.bind(logger);
  logger.error = (...args: unknown[]) => {
    context.errors.push(args[0]);
    original(...args);
  };
});
Prototype.after(async ({ app }) => app.stop());

Prototype(
  '/api/docs/<prototype key> is a 404 in the envelope, logs nothing and counts against the limit',
  async ({ app, errors }) => {
    const remaining: number[] = [];
    for (const key of PROTOTYPE_KEYS) {
      const response = await app.rest('GET', `/api/docs/${key}`);
      assert.is(response.status, 404, `${key}: ${response.status} ${response.text.slice(0, 120)}`);
      assert.equal(response.body, {
        code: 404,
        message: `No route for GET /api/docs/${key}`,
        data: { key: 'request.notFound' },
      });
      remaining.push(Number(response.headers.get('ratelimit-remaining')));
    }
    assert.equal(
      remaining,
      PROTOTYPE_KEYS.map((_, index) => LIMIT - 1 - index),
      'each one counted',
    );
    // The documentation itself stays outside the limit.
    for (const path of ['/api/docs', '/api/docs/', '/api/docs/init.js', '/api/docs/swagger-ui.css']) {
      const response = await fetch(`${app.url}${path}`);
      await response.arrayBuffer();
      assert.is(response.status, 200, path);
      assert.is(response.headers.get('ratelimit-remaining'), null, `${path} is not counted`);
    }
    for (let spent = PROTOTYPE_KEYS.length; spent < LIMIT; spent++)
      assert.is((await app.rest('GET', '/api/docs/constructor')).status, 404);
    const over = await app.rest('GET', '/api/docs/constructor');
    assert.is(over.status, 429, 'past the limit');
    assert.ok(Number(over.headers.get('retry-after')) >= 1);
    assert.is((await fetch(`${app.url}/api/docs/swagger-ui.css`)).status, 200, 'the reference is still served');
    assert.is(errors.length, 0, `logged: ${JSON.stringify(errors).slice(0, 300)}`);
  },
);

Prototype.run();

const Query = serverSuite('item 6: prototype keys in query strings and inputs');

Query(
  '?__proto__=1 and other prototype keys are ordinary unknown parameters (REST), and inputs on tRPC',
  async ({ app }) => {
    const plain = await app.rest('GET', '/api/assembly/list');
    assert.is(plain.status, 200);
    // Unknown parameters are refused (issue 18): a 400 naming the key, as for any other unknown name.
    for (const [query, key] of [
      ['__proto__=1', '__proto__'],
      ['__proto__=1&__proto__=2', '__proto__'],
      ['__proto__[sort]=rating', '__proto__'],
      ['constructor=x', 'constructor'],
      ['toString=1', 'toString'],
      ['hasOwnProperty=1&page=1', 'hasOwnProperty'],
    ] as const) {
      const response = await app.rest('GET', `/api/assembly/list?${query}`);
      assert.is(response.status, 400, `?${query}: ${response.text.slice(0, 160)}`);
      assert.ok(
        response.body.message.includes(`Unrecognized key: "${key}`),
        `?${query} names the key: ${response.body.message}`,
      );
    }
    // A prototype key as the value of a known parameter is a value like any other.
    for (const query of ['sortField=__proto__', 'sortField=constructor', 'sortField=hasOwnProperty']) {
      const response = await app.rest('GET', `/api/assembly/list?${query}`);
      assert.is(response.status, 400, `?${query}: ${response.text.slice(0, 160)}`);
      assert.match(response.body.message, /sortField: must be createdTime, likes, rating/);
    }
    // The parameters the route knows still arrive (they were read through an array prototype before).
    const sorted = await app.rest('GET', '/api/assembly/list?__proto__=1&sort=bogus');
    assert.is(sorted.status, 400);
    assert.match(sorted.body.message, /sort: must be latest, hottest, rating or updated/);

    // tRPC: the same keys as fields of a query's input (sent as tRPC's wire format: superjson drops `__proto__`; the others are unknown keys, a 400).
    for (const input of ['{"__proto__":"1"}', '{"__proto__":{"sort":"rating"}}']) {
      const wire = encodeURIComponent(`{"json":${input}}`);
      const response = await fetch(`${app.url}/trpc/assembly.list?input=${wire}`);
      const body: any = await response.json();
      assert.is(response.status, 200, JSON.stringify(body).slice(0, 200));
      assert.equal(body.result.data.json, plain.body.data);
    }
    const unknown = await fetch(
      `${app.url}/trpc/assembly.list?input=${encodeURIComponent('{"json":{"constructor":"x","toString":"1"}}')}`,
    );
    const refused: any = await unknown.json();
    assert.is(unknown.status, 400, JSON.stringify(refused).slice(0, 200));
    assert.match(refused.error.json.message, /Unrecognized keys: "constructor", "toString"/);
  },
);

Query(
  'a catalog import keyed by prototype names: `__proto__` and `constructor` are data, never a prototype',
  async ({ app }) => {
    const admin = await signUpAdmin(app);
    const [hullId, hull] = Object.entries(COMMUNITY_SAMPLE.ships)[0]!;
    const [itemId, item] = Object.entries(COMMUNITY_SAMPLE.items)[0]!;
    // JSON text, as an import file arrives: JSON.parse makes `__proto__` an own key, which an object literal would not.
    const slots = JSON.parse(`{"__proto__":[1,2],"constructor":[1,2],${JSON.stringify(hull.slots).slice(1)}`);
    const body = `{"ships":{"${hullId}":${JSON.stringify({ ...hull, slots })}},"items":{"${itemId}":${JSON.stringify(item)}}}`;
    const response = await fetch(`${app.url}/api/admin/catalog/import`, {
      method: 'POST',
      headers: { authorization: `Bearer ${admin.token}`, 'content-type': 'application/json' },
      body,
    });
    const report: any = await response.json();
    assert.is(response.status, 200, JSON.stringify(report).slice(0, 300));
    assert.is(report.data.hulls.inserted + report.data.hulls.updated, 1);
    const [stored] = await app.database.db
      .select({ slots: catalogHulls.slots })
      .from(catalogHulls)
      .where(eq(catalogHulls.id, hullId));
    const kept = JSON.parse(stored!.slots);
    // `constructor` is a slot like any other; `__proto__` never gets past input parsing (zod rebuilds records key by key).
    assert.equal(kept.constructor, { count: 1, gunPorts: 2 }, `slots kept as data: ${stored!.slots.slice(0, 200)}`);
    assert.not.ok(Object.hasOwn(kept, '__proto__'));
    assert.is(Object.getPrototypeOf(kept), Object.prototype);
  },
);

Query.run();
