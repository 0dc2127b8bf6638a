/**
 * How long a front end's tsc takes on a small file that uses Tidewatch's clients (issue 21, item 1).
 *
 * Three cases, measured in one run, in the same fresh consumer project (packages/client/consumer.ts:
 * the packed @tidewatch/client installed with its declared dependencies, strict, bundler resolution):
 *  - empty: a file that imports nothing, tsc's fixed cost (the baseline);
 *  - package: a 20-line file using both clients of @tidewatch/client (its bundled declarations);
 *  - server: the same calls typed by `import type { AppRouter }` from the repository's server/router.ts,
 *    as a front end had to before the package existed (run in the repository, whose node_modules it
 *    needs).
 * Each case runs `--rounds` times (default 3); the median is reported with its ratio to the baseline.
 *
 *   npx tsx bench/client-typecheck.ts [--rounds 3]
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { join, resolve } from 'node:path';
import { CLIENT_DIR } from '../packages/client/build';
import { CONSUMER_COMPILER_OPTIONS, createConsumerProject, packClient, typeCheck } from '../packages/client/consumer';

const ROOT = resolve(CLIENT_DIR, '../..');
const roundsFlag = process.argv.indexOf('--rounds');
const ROUNDS = roundsFlag > 0 ? Number(process.argv[roundsFlag + 1]) : 3;

const EMPTY = `export const answer: number = 42;\n`;

const CALLS = `
let token: string | undefined;
export async function signedInName(username: string, password: string): Promise<string> {
  const page = await trpc.assembly.list.query({ page: 1, pageSize: 5 });
  const session = await trpc.user.signin.mutate({ username, password });
  token = session.token;
  const me = await trpc.user.me.query();
  return \`\${me.username} \${page.pagination.total} \${token}\`;
}
`;

const WITH_PACKAGE = `import { createTidewatchClient } from '@tidewatch/client';
import { createTidewatchRestClient } from '@tidewatch/client/rest';
const trpc = createTidewatchClient('http://127.0.0.1:3000', { token: () => token });
const rest = createTidewatchRestClient('http://127.0.0.1:3000', { token: () => token });
export async function restName(): Promise<string | undefined> {
  const { data } = await rest.GET('/user/me');
  return data?.data.username;
}
${CALLS}`;

const WITH_SERVER = `import { createTRPCClient, httpBatchLink } from '@trpc/client';
import superjson from 'superjson';
import type { AppRouter } from '../../../server/router';
const trpc = createTRPCClient<AppRouter>({
  links: [httpBatchLink({ url: 'http://127.0.0.1:3000/trpc', transformer: superjson, headers: () => (token ? { authorization: \`Bearer \${token}\` } : {}) })],
});
${CALLS}`;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

async function timeTypeCheck(dir: string, file: string, tsc?: string): Promise<number[]> {
  const times: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const started = performance.now();
    const result = await typeCheck(dir, [file], tsc);
    if (result.status !== 0) throw new Error(`tsc failed on ${file}:\n${result.stdout}${result.stderr}`);
    times.push(performance.now() - started);
  }
  return times;
}

const work = mkdtempSync(join(tmpdir(), 'tidewatch-typecheck-'));
const serverDir = join(ROOT, 'bench/.build/typecheck');
try {
  const project = join(work, 'project');
  mkdirSync(project);
  console.error('packing and installing @tidewatch/client into a fresh project');
  await createConsumerProject(project, await packClient(work));
  writeFileSync(join(project, 'empty.ts'), EMPTY);
  writeFileSync(join(project, 'with-package.ts'), WITH_PACKAGE);
  // The server case lives in the repository (bench/.build/typecheck, as the import says) and uses its tsc.
  mkdirSync(serverDir, { recursive: true });
  writeFileSync(join(serverDir, 'with-server.ts'), WITH_SERVER);
  const repositoryTsc = join(ROOT, 'node_modules/typescript/bin/tsc');

  console.log(
    `machine: ${cpus().length} x ${cpus()[0]?.model}, ${Math.round(totalmem() / 2 ** 30)} GB, node ${process.version}, load ${loadavg()
      .map((n) => n.toFixed(2))
      .join(' ')}`,
  );
  console.log(`compiler options: ${JSON.stringify(CONSUMER_COMPILER_OPTIONS)}; ${ROUNDS} rounds, median`);
  const cases: Array<[string, () => Promise<number[]>]> = [
    ['empty (baseline)', () => timeTypeCheck(project, 'empty.ts')],
    ['@tidewatch/client', () => timeTypeCheck(project, 'with-package.ts')],
    ['server/router.ts', () => timeTypeCheck(serverDir, 'with-server.ts', repositoryTsc)],
  ];
  let baseline = 0;
  console.log('| case | median s | runs s | vs baseline |\n|---|---|---|---|');
  for (const [name, run] of cases) {
    const times = await run();
    const middle = median(times);
    if (baseline === 0) baseline = middle;
    console.log(
      `| ${name} | ${(middle / 1000).toFixed(2)} | ${times.map((time) => (time / 1000).toFixed(2)).join(', ')} | ${(middle / baseline).toFixed(2)} |`,
    );
  }
  console.log(
    `load at the end: ${loadavg()
      .map((n) => n.toFixed(2))
      .join(' ')}`,
  );
} finally {
  rmSync(work, { recursive: true, force: true });
  rmSync(serverDir, { recursive: true, force: true });
}
