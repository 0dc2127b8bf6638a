/**
 * Latency of the heaviest map and order operations on the real app (SQLite file, one process):
 * create/replace/read a collection of 1,000 points, and create + confirm orders.
 * Run: npx tsx bench/map-subscription.ts
 */
import { setRole } from '../server/domains/user/account';
import { DEMO_SUBSCRIPTION_CATALOG } from '../server/seed/subscription';
import { startTestServer } from '../test/support/helpers';

function stats(label: string, samples: number[]): void {
  const sorted = [...samples].sort((a, b) => a - b);
  const pick = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!.toFixed(1);
  console.log(`${label.padEnd(44)} n=${samples.length} p50=${pick(0.5)}ms p95=${pick(0.95)}ms max=${pick(1)}ms`);
}

async function time(run: () => Promise<unknown>): Promise<number> {
  const start = performance.now();
  await run();
  return performance.now() - start;
}

const app = await startTestServer();
try {
  const user = await app.signUp();
  const admin = await app.signUp();
  await setRole({ db: app.database.db }, { username: admin.username, role: 'admin' });
  await app.rest('POST', '/api/admin/subscription/import', { token: admin.token, body: DEMO_SUBSCRIPTION_CATALOG });

  const points = Array.from({ length: 1000 }, (_, index) => ({
    title: `Point ${index}`,
    description: 'A wreck worth diving for',
    latitude: (index % 179) - 89,
    longitude: (index % 359) - 179,
    tags: ['wreck', 'loot'],
  }));
  const create: number[] = [];
  const replace: number[] = [];
  const read: number[] = [];
  let uuid = '';
  for (let round = 0; round < 20; round++) {
    create.push(
      await time(async () => {
        const response = await app.rest('POST', '/api/map/collection', {
          token: user.token,
          body: { title: `c${round}`, points },
        });
        uuid = response.body.data.uuid;
      }),
    );
    replace.push(
      await time(() => app.rest('PUT', `/api/map/collection/${uuid}`, { token: user.token, body: { points } })),
    );
    read.push(await time(() => app.rest('GET', `/api/map/collection/${uuid}`)));
  }
  stats('POST /map/collection (1,000 points)', create);
  stats('PUT /map/collection/{uuid} (replace 1,000)', replace);
  stats('GET /map/collection/{uuid} (1,000 points)', read);

  const orders: number[] = [];
  const confirms: number[] = [];
  for (let round = 0; round < 100; round++) {
    let orderId = '';
    orders.push(
      await time(async () => {
        const response = await app.rest('POST', '/api/subscription/orders/create', {
          token: user.token,
          body: { tierId: 'deckhand-1m', payType: 'manual' },
        });
        orderId = response.body.data.orderId;
      }),
    );
    confirms.push(
      await time(() => app.rest('POST', `/api/admin/subscription/orders/${orderId}/confirm`, { token: admin.token })),
    );
  }
  stats('POST /subscription/orders/create', orders);
  stats('POST /admin/subscription/orders/{id}/confirm', confirms);
  const hall: number[] = [];
  for (let round = 0; round < 50; round++) hall.push(await time(() => app.rest('GET', '/api/subscription/hall')));
  stats('GET /subscription/hall', hall);
} finally {
  await app.stop();
}
