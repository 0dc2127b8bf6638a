/**
 * A typed TypeScript client of Tidewatch over native tRPC, as a front end would write it with the
 * @tidewatch/client package (docs/client.md):
 *
 *   TIDEWATCH_URL=http://127.0.0.1:3000 node --import tsx examples/trpc-client.ts
 *
 * A front end imports from '@tidewatch/client'; inside this repository the example imports the
 * package's source, which takes only the router's *type* from the server.
 */
import { pathToFileURL } from 'node:url';
import { createTidewatchClient, TRPCClientError } from '../packages/client/src/index';

/** Signs up, keeps a map collection, reads public data, signs out; prints one line per step. */
export async function run(baseUrl: string, print: (line: string) => void = console.log): Promise<void> {
  let token: string | undefined;
  // The token is read before every request: the client is made once, before signing up.
  const client = createTidewatchClient(baseUrl, { token: () => token });

  // Two calls in one tick: one batched request.
  const [health, challenge] = await Promise.all([client.health.get.query(), client.captcha.get.query()]);
  print(`health: ${health.status}, database ${health.database}`);
  print(`captcha: ${challenge.algorithm} challenge, maxnumber ${challenge.maxnumber}`);

  const username = `example_${Date.now().toString(36)}`;
  const session = await client.user.signup.mutate({
    username,
    email: `${username}@example.com`,
    password: 'pieces of eight',
  });
  token = session.token;
  print(`signed up: ${session.username} (${session.role.join(', ')}), session until ${session.expiresAt}`);

  const me = await client.user.me.query();
  print(`me: ${me.username} <${me.email}>`);

  const created = await client.map.create.mutate({
    title: 'Treasure spots',
    description: 'Where the chests were',
    points: [
      { title: 'Saint-Anne', latitude: -12.5, longitude: 44.1, tags: ['port'] },
      { title: 'Red Isle wreck', latitude: -15.25, longitude: 49.75 },
    ],
  });
  print(`created collection ${created.uuid} with ${created.points.length} points`);

  const mine = await client.map.listOwn.query({});
  print(`my collections: ${mine.pagination.total}`);

  const read = await client.map.get.query({ uuid: created.uuid });
  print(`read back: ${read.title} [${read.points.map((point) => point.title).join(', ')}]`);

  const plans = await client.subscription.plans.query({});
  print(`sponsorship plans: ${plans.plans.length}`);

  await client.user.signout.mutate({});
  try {
    await client.user.me.query({});
    print('me after sign-out: unexpectedly allowed');
  } catch (error) {
    if (!(error instanceof TRPCClientError)) throw error;
    print(`me after sign-out: ${error.data?.httpStatus} ${error.message}`);
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  run(process.env.TIDEWATCH_URL ?? 'http://127.0.0.1:3000').catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
