import { z } from 'zod';
import { importCatalog } from '../catalog/service';
import { adminProcedure, router } from '../../trpc';

const ZCount = z.object({ inserted: z.number().int(), updated: z.number().int() });

export const ZImportReport = z.object({
  hulls: ZCount,
  items: ZCount.extend({
    byCategory: z.object({ weapon: z.number().int(), armor: z.number().int(), furniture: z.number().int(), other: z.number().int() }),
    byType: z.record(z.string(), z.number().int()),
  }),
  skipped: z.array(z.object({ file: z.enum(['ships', 'items']), id: z.string(), reason: z.string() })),
});

/** Catalog ingestion: the same import service as `npm run cli -- import-catalog`. */
export const catalogAdminRouter = router({
  import: adminProcedure
    .meta({
      openapi: {
        method: 'POST',
        path: '/admin/catalog/import',
        tags: ['admin'],
        protect: true,
        summary: 'Import hulls and items in the community data format (upsert)',
        description: 'Body: { ships, items }, the contents of ships.json and items.json. Unusable entries are skipped and reported.',
      },
    })
    .input(
      z.object({
        ships: z.record(z.string(), z.unknown(), { error: 'must be a JSON object keyed by hull id' }),
        items: z.record(z.string(), z.unknown(), { error: 'must be a JSON object keyed by item id' }),
      }),
    )
    .output(ZImportReport)
    .mutation(async ({ input, ctx }) => {
      const report = await importCatalog(ctx.db, input, ctx.deps.now());
      // Summaries carry hull figures: every cached assembly read may be stale now.
      await Promise.all([ctx.deps.caches.item.invalidateAll(), ctx.deps.caches.list.invalidateAll()]);
      return report;
    }),
});
