import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { suite } from '../support/suite';
import * as assert from 'uvu/assert';
import { importedSpecifiers } from '../../packages/client/build';
import { createConsumerProject, packClient, typeCheck } from '../../packages/client/consumer';
import { fencedBlocks } from '../support/docs-blocks';
import { startTestServer, type TTestServer } from '../support/helpers';
import { ROOT, runCommand } from '../support/process';

/** What the published code and declarations may import: the package's own dependencies and its own files. */
const DEPENDENCIES = ['@trpc/client', '@trpc/server', 'superjson', 'openapi-fetch'];
const SERVER_PACKAGES = [
  'better-sqlite3',
  '@libsql/client',
  'drizzle-orm',
  'zod',
  'fastify',
  'trpc-to-openapi',
  '@node-rs/argon2',
  'ioredis',
];

/** Both clients, as a front end writes them: must type-check. */
const USES_BOTH_CLIENTS = `import { createTidewatchClient, TRPCClientError, type RouterInputs, type RouterOutputs } from '@tidewatch/client';
import { createTidewatchRestClient } from '@tidewatch/client/rest';

let token: string | undefined;
const trpc = createTidewatchClient('http://127.0.0.1:3000', { token: () => token });
const rest = createTidewatchRestClient('http://127.0.0.1:3000', { token: () => token });

export async function signedInName(username: string, password: string): Promise<string> {
  const listInput: RouterInputs['assembly']['list'] = { page: 1, pageSize: 5 };
  const page = await trpc.assembly.list.query(listInput);
  const total: number = page.pagination.total;
  const session = await trpc.user.signin.mutate({ username, password });
  token = session.token;
  const me: RouterOutputs['user']['me'] = await trpc.user.me.query();
  const restMe = await rest.GET('/user/me');
  if (!restMe.data) throw new Error(restMe.error.message);
  try {
    await trpc.assembly.getItem.query({ uuid: '3f6c8a52-1d4e-4b7a-9c0e-5a2b7d9e1f34' });
  } catch (error) {
    if (error instanceof TRPCClientError) return \`\${error.data?.httpStatus} \${total}\`;
  }
  return me.username + restMe.data.data.username;
}
`;

/** One wrong call per line: each must be refused, or the types would be \`any\`. */
const WRONG_CALLS = [
  `trpc.assembly.list.query({ sort: 'loudest' });`,
  `trpc.user.nosuchProcedure.query();`,
  `trpc.user.signin.mutate({ username: 'captain' });`,
  `rest.GET('/user/no-such-path');`,
  `rest.POST('/user/signup', { body: { username: 'x', password: 'pieces of eight' } });`,
  `const status: number = (await trpc.health.get.query()).status;`,
];
const WRONG = `import { createTidewatchClient } from '@tidewatch/client';
import { createTidewatchRestClient } from '@tidewatch/client/rest';
const trpc = createTidewatchClient('http://127.0.0.1:3000');
const rest = createTidewatchRestClient('http://127.0.0.1:3000');
${WRONG_CALLS.join('\n')}
`;
const FIRST_WRONG_LINE = 5;

/** Plain JavaScript against a live server through both clients; prints what it saw as JSON. */
const LIVE_SCRIPT = `import { createTidewatchClient, TRPCClientError } from '@tidewatch/client';
import { createTidewatchRestClient } from '@tidewatch/client/rest';

const url = process.env.TIDEWATCH_URL;
let token;
const trpc = createTidewatchClient(url, { token: () => token });
const rest = createTidewatchRestClient(url, { token: () => token });

const [health, page] = await Promise.all([trpc.health.get.query(), trpc.assembly.list.query({ page: 1, pageSize: 5 })]);
const restPage = await rest.GET('/assembly/list', { params: { query: { page: 1, pageSize: 5 } } });
const anonymous = await trpc.user.me.query().then(() => 'allowed', (error) => (error instanceof TRPCClientError ? error.data?.httpStatus : String(error)));
const restAnonymous = await rest.GET('/user/me');

const session = await trpc.user.signin.mutate({ username: 'deckhand', password: 'tidewatch-demo' });
token = session.token;
const me = await trpc.user.me.query();
const restMe = await rest.GET('/user/me');
const withStringToken = await createTidewatchRestClient(url + '/', { token: session.token }).GET('/user/me');

console.log(JSON.stringify({
  health: health.status,
  trpcTotal: page.pagination.total,
  trpcFirstUuid: page.data[0]?.uuid,
  restTotal: restPage.data?.data.pagination.total,
  restFirstUuid: restPage.data?.data.data[0]?.uuid,
  anonymous: [anonymous, restAnonymous.response.status],
  me: [me.username, restMe.data?.data.username, withStringToken.data?.data.username],
}));
`;

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

const ClientPackage = suite<{ dir: string; project: string; unpacked: string; app: TTestServer }>(
  '@tidewatch/client: packed, installed in a fresh project, type-checked and run against a live server',
);

ClientPackage.before(async (context) => {
  // Outside the repository, so nothing resolves from the project's node_modules by accident.
  context.dir = mkdtempSync(join(tmpdir(), 'tidewatch-client-'));
  context.project = join(context.dir, 'project');
  context.unpacked = join(context.dir, 'unpacked');
  mkdirSync(context.project);
  mkdirSync(context.unpacked);
  const tarball = await packClient(context.dir);
  const untar = await runCommand('tar', ['-xzf', tarball, '-C', context.unpacked], { cwd: context.dir });
  assert.is(untar.status, 0, untar.stderr);
  await createConsumerProject(context.project, tarball);
  context.app = await startTestServer({ SEED_DEMO: true });
});
ClientPackage.after(async (context) => {
  await context.app?.stop();
  rmSync(context.dir, { recursive: true, force: true });
});

ClientPackage(
  'the tarball holds the built clients and their declarations, and nothing of the server',
  ({ unpacked, project }) => {
    const files = filesUnder(join(unpacked, 'package')).map((file) => relative(join(unpacked, 'package'), file));
    assert.equal(files.sort(), [
      'README.md',
      'dist/index.d.ts',
      'dist/index.js',
      'dist/rest.d.ts',
      'dist/rest.js',
      'dist/token.d.ts',
      'package.json',
    ]);
    for (const file of files.filter((name) => name.startsWith('dist/'))) {
      const code = readFileSync(join(unpacked, 'package', file), 'utf8');
      for (const specifier of importedSpecifiers(code)) {
        // A subpath of a dependency is that dependency (@trpc/server/unstable-core-do-not-import: tracked events' types).
        const dependency = specifier.replace(/^((?:@[^/]+\/)?[^/]+).*$/, '$1');
        assert.ok(DEPENDENCIES.includes(dependency) || /^\.\/[\w.-]+$/.test(specifier), `${file} imports ${specifier}`);
      }
      assert.not.match(code, /['"](?:\.\.\/)+(?:server|db)\//, `${file} names a server file`);
    }
    const manifest = JSON.parse(readFileSync(join(unpacked, 'package', 'package.json'), 'utf8'));
    assert.equal(Object.keys(manifest.dependencies).sort(), DEPENDENCIES.slice().sort());
    for (const name of SERVER_PACKAGES)
      assert.not.ok(existsSync(join(project, 'node_modules', name)), `${name} was installed`);
  },
);

ClientPackage(
  "the project's own tsc accepts a file using both clients and refuses every wrong call",
  async ({ project }) => {
    writeFileSync(join(project, 'uses-both.ts'), USES_BOTH_CLIENTS);
    const accepted = await typeCheck(project, ['uses-both.ts']);
    assert.is(accepted.status, 0, accepted.stdout);

    writeFileSync(join(project, 'wrong.ts'), WRONG);
    const refused = await typeCheck(project, ['wrong.ts']);
    assert.is.not(refused.status, 0);
    const errorLines = new Set(
      [...refused.stdout.matchAll(/^wrong\.ts\((\d+),\d+\): error TS\d+/gm)].map((match) => Number(match[1])),
    );
    for (const [index, call] of WRONG_CALLS.entries())
      assert.ok(errorLines.has(FIRST_WRONG_LINE + index), `not refused: ${call}\n${refused.stdout}`);
  },
);

ClientPackage("the TypeScript snippets of the package's README type-check as one file", async ({ project }) => {
  const snippets = fencedBlocks(ROOT, 'packages/client/README.md').filter((block) => block.info === 'ts');
  assert.ok(snippets.length >= 2, `${snippets.length} snippets`);
  writeFileSync(join(project, 'readme.ts'), snippets.map((block) => block.body).join('\n'));
  const checked = await typeCheck(project, ['readme.ts']);
  assert.is(checked.status, 0, checked.stdout);
});

// README.md and docs/client.md show the clients in use too: each file's snippets are one module of the consumer.
ClientPackage('the TypeScript snippets of README.md and docs/client.md type-check', async ({ project }) => {
  for (const [file, module] of [
    ['README.md', 'readme-root.ts'],
    ['docs/client.md', 'docs-client.ts'],
  ] as const) {
    const snippets = fencedBlocks(ROOT, file).filter((block) => block.info === 'ts');
    assert.ok(snippets.length >= 1, `${file}: ${snippets.length} snippets`);
    writeFileSync(join(project, module), snippets.map((block) => block.body).join('\n'));
    const checked = await typeCheck(project, [module]);
    assert.is(checked.status, 0, `${file}: ${checked.stdout}`);
  }
});

ClientPackage(
  'a plain .mjs script calls the live server through both clients, signed out and signed in',
  async ({ project, app }) => {
    writeFileSync(join(project, 'live.mjs'), LIVE_SCRIPT);
    const result = await runCommand(process.execPath, ['live.mjs'], { cwd: project, env: { TIDEWATCH_URL: app.url } });
    assert.is(result.status, 0, result.stderr);
    const seen = JSON.parse(result.stdout);
    const expected = await app.rest('GET', '/api/assembly/list?page=1&pageSize=5');
    assert.is(seen.health, 'ok');
    assert.ok(expected.body.data.pagination.total > 0, 'the demo seed has assemblies');
    assert.is(seen.trpcTotal, expected.body.data.pagination.total);
    assert.is(seen.restTotal, expected.body.data.pagination.total);
    assert.is(seen.trpcFirstUuid, expected.body.data.data[0].uuid);
    assert.is(seen.restFirstUuid, expected.body.data.data[0].uuid);
    assert.equal(seen.anonymous, [401, 401]);
    assert.equal(seen.me, ['deckhand', 'deckhand', 'deckhand']);
  },
);

ClientPackage.run();
