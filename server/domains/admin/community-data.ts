// The community data set's import (issue 34): the same service as `cli import-community-data`, on the
// copy of the data set this server carries (server/seed/community-data/, glow-prow-data at bfdfc02).
import { importCommunityData } from '../codex';
import { ZCommunityImport } from '../codex/schemas';
import { readCommunityData } from '../../infra/packaged-files';
import { ZNoInput } from '../../schemas';
import { adminProcedure, router } from '../../trpc';

export const communityDataAdminRouter = router({
  import: adminProcedure
    .meta({
      openapi: {
        method: 'POST',
        path: '/admin/community-data/import',
        tags: ['admin'],
        protect: true,
        summary: 'Import the community data set this server carries: catalog, seasons, zones, companies, codex',
        description:
          'No body: the data set is the copy the server carries (glow-prow-data at bfdfc02; a newer one is imported with `cli import-community-data <dir>`). ' +
          'Each kind in its own transaction, writing only what differs: a second call changes nothing (changed: false). ' +
          "A kind with a bad entry is a 400 listing each problem by file and entry (the catalog import's rule), and the kinds after it are not imported. " +
          'Answers a report per kind: read, added, changed, unchanged, skipped, and the reasons of the skipped entries.',
      },
    })
    .input(ZNoInput)
    .output(ZCommunityImport)
    .mutation(async ({ ctx }) => {
      const report = await importCommunityData(ctx.deps, { files: readCommunityData() });
      // A catalog that changed changes the figures of cached assembly reads.
      if (report.kinds.some((kind) => kind.kind === 'catalog' && kind.added + kind.changed > 0))
        await Promise.all([ctx.deps.caches.item.invalidateAll(), ctx.deps.caches.list.invalidateAll()]);
      return report;
    }),
});
