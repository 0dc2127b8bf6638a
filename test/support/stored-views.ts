import { eq, inArray } from 'drizzle-orm';
import type { TDb } from '../../db/client';
import { assemblies, assemblyViews } from '../../db/schema';

/** The stored view counts (assembly_views, migration 0017) of assemblies by uuid, in the order given; undefined for an unknown one. */
export async function storedViewsOf(db: TDb, uuids: string[]): Promise<(number | undefined)[]> {
  const rows = await db
    .select({ uuid: assemblies.uuid, views: assemblyViews.views })
    .from(assemblies)
    .innerJoin(assemblyViews, eq(assemblyViews.assemblyId, assemblies.id))
    .where(inArray(assemblies.uuid, uuids));
  const byUuid = new Map(rows.map((row) => [row.uuid, row.views]));
  return uuids.map((uuid) => byUuid.get(uuid));
}
