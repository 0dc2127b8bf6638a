/** War reference data: seasons, zones and trading companies, created or updated by id. */
import type { TDb } from '../../../db/client';
import { warCompanies, warZones } from '../../../db/schema';
import { transaction } from '../../../db/transaction';
import type { TDepsOf } from '../../deps';
import { AppError } from '../../errors';
import { checkSeasons, writeSeasons } from './seasons';
import type { TWarReferenceInput, TWarReferenceResult } from './schemas';

/** Upserts seasons, zones and companies, all or nothing; season clashes (key, number) are a 400 listing every issue. */
export async function upsertWarReference(deps: TDepsOf<'db'>, input: TWarReferenceInput): Promise<TWarReferenceResult> {
  return transaction(deps.db, (tx) => upsertWarReferenceIn(tx, input));
}

/** upsertWarReference inside the caller's transaction (the import of a war file). */
export async function upsertWarReferenceIn(tx: TDb, input: TWarReferenceInput): Promise<TWarReferenceResult> {
  const issues = await checkSeasons(tx, input.seasons, 'seasons');
  if (issues.length > 0)
    throw new AppError('BAD_REQUEST', `Invalid input: ${issues[0]!.path}: ${issues[0]!.message}`, { issues });
  await writeSeasons(tx, input.seasons);
  for (const zone of input.zones) {
    await tx
      .insert(warZones)
      .values(zone)
      .onConflictDoUpdate({ target: warZones.id, set: { name: zone.name } })
      .run();
  }
  for (const company of input.companies) {
    await tx
      .insert(warCompanies)
      .values(company)
      .onConflictDoUpdate({ target: warCompanies.id, set: { name: company.name, color: company.color } })
      .run();
  }
  return { seasons: input.seasons.length, zones: input.zones.length, companies: input.companies.length };
}
