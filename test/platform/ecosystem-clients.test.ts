// The typed clients (the OpenAPI document itself: ecosystem-openapi.test.ts): openapi-typescript types generated
// from /api/openapi.json type-check examples/rest-client, which runs with openapi-fetch against a test server, and
// examples/trpc-client.ts runs with import type { AppRouter }.
import { join } from 'node:path';
import * as assert from 'uvu/assert';
import { generateOpenApiTypes } from '../../scripts/openapi-types';
import { writeRestTypesFile } from '../../packages/client/build';
import { ROOT, runNode } from '../support/process';
import { serverSuite } from '../support/server-suite';

function run(args: string[], env: Record<string, string> = {}) {
  return runNode(args, { env, timeoutMs: 120_000 });
}

const Clients = serverSuite('typed clients: openapi-fetch over generated types, and the tRPC example');

Clients(
  'openapi-typescript types from /api/openapi.json type-check a client that calls three endpoints',
  async ({ app }) => {
    const document = (await (await fetch(`${app.url}/api/openapi.json`)).json()) as object;
    const types = await generateOpenApiTypes(document);
    assert.match(types, /"\/user\/me": \{/);
    writeRestTypesFile(types);
    const tsc = await run([join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', 'examples/rest-client']);
    assert.is(tsc.status, 0, `tsc on the generated client failed:\n${tsc.stdout}${tsc.stderr}`);

    // A computed specifier: the client needs the generated REST types, so the project's own tsc must not follow it
    // (it is type-checked just above, with its own tsconfig, once the types exist).
    const clientModule = '../../examples/rest-client/client.ts';
    const client = (await import(clientModule)) as { run: (baseUrl: string) => Promise<any> };
    const result = await client.run(app.url);
    assert.is(result.health, 'ok');
    assert.match(result.username, /^rest_[0-9a-z]+$/);
    assert.is(result.email, `${result.username}@example.com`);
    assert.is(result.publicProfileHasEmail, false);
    assert.equal(result.unauthorized, { status: 401, message: 'Missing access token' });
  },
);

Clients('examples/trpc-client.ts runs against a started server with import type { AppRouter }', async ({ app }) => {
  const child = await run(['--import', 'tsx', 'examples/trpc-client.ts'], { TIDEWATCH_URL: app.url });
  assert.is(child.status, 0, child.stderr);
  const lines = child.stdout.trim().split('\n');
  assert.is(lines[0], 'health: ok, database ok');
  assert.is(lines[1], 'captcha: SHA-256 challenge, maxnumber 2000');
  assert.match(lines[2]!, /^signed up: example_[0-9a-z]+ \(normal\), session until \d{4}-\d\d-\d\dT/);
  assert.match(lines[3]!, /^me: example_[0-9a-z]+ <example_[0-9a-z]+@example\.com>$/);
  assert.match(lines[4]!, /^created collection [0-9a-f-]{36} with 2 points$/);
  assert.is(lines[5], 'my collections: 1');
  assert.is(lines[6], 'read back: Treasure spots [Saint-Anne, Red Isle wreck]');
  assert.is(lines[7], 'sponsorship plans: 0');
  assert.is(lines[8], 'me after sign-out: 401 Invalid or expired access token');
  assert.is(lines.length, 9);
});

Clients.run();
