import { importCatalog } from '../catalog';
import { ZCatalogImportInput, ZImportReport } from '../catalog/schemas';
import { adminProcedure, router } from '../../trpc';

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
        description:
          'Body: { ships, items }, the contents of ships.json and items.json. All or nothing: an entry that is not a usable hull (in ships: a size and slots) ' +
          'or item (in items: a type) is a 400 listing each such entry by file (ships.json "dhow": ...), and nothing is written.',
      },
    })
    .input(ZCatalogImportInput)
    .output(ZImportReport)
    .mutation(async ({ input, ctx }) => {
      const report = await importCatalog(ctx.deps, { files: input });
      // Summaries carry hull figures: every cached assembly read may be stale now.
      await Promise.all([ctx.deps.caches.item.invalidateAll(), ctx.deps.caches.list.invalidateAll()]);
      return report;
    }),
});
