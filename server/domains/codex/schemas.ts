// The codex (issue 34): the kinds of entity the community web client has a codex page for, their ids,
// and the report of the community data set's import.
import { z } from 'zod';

/**
 * The codex kinds, named as the web client sends them as a comment or like target type (its
 * CommentWidget `type`, LikeWidget `targetType`): `commoditie` and `mod` are the client's spellings.
 */
export const CODEX_KINDS = [
  'ship',
  'item',
  'commoditie',
  'cosmetic',
  'mapLocation',
  'material',
  'mod',
  'npc',
  'set',
  'treasureMap',
  'ultimate',
] as const;
export type TCodexKind = (typeof CODEX_KINDS)[number];

/** What an id of the data set looks like (every one of bfdfc02 does; the longest has 34 characters). */
export const CODEX_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,99}$/;

export const ZCodexId = z
  .string({ error: (issue) => (issue.input === undefined ? 'is required' : 'must be a string') })
  .regex(CODEX_ID_PATTERN, 'must be a codex id: 1-100 of letters, digits, _ . - starting with a letter or digit')
  .meta({ description: "The codex entry's id in the community data set (dhow, culverin1, crownedPrince, ...)" });

/** A codex entry as answers name it (a like or a comment's target). */
export const ZCodexEntry = z.object({
  kind: z.enum(CODEX_KINDS).meta({ description: 'Its kind: the target type the web client sends for it' }),
  id: z.string().meta({ description: 'Its id in the community data set' }),
  name: z.string().meta({ description: 'A name made from the id (the data set has none of its own)' }),
  type: z.string().nullable().meta({ description: 'Its type or category in the data set; null when it has none' }),
  rarity: z.string().nullable().meta({ description: 'Its rarity; null when the data set gives none' }),
  season: z.string().nullable().meta({ description: 'The season key it came with; null when the data set says none' }),
});
export type TCodexEntry = z.infer<typeof ZCodexEntry>;

const count = (description: string) => z.number().int().meta({ description });

/** What one kind of the import did (the CLI prints a line of each). */
export const ZImportKindReport = z.object({
  kind: z.string().meta({
    description: 'What was imported: catalog, seasons, zones, companies, codex <kind>, or a file read but not written',
  }),
  files: z.array(z.string()).meta({ description: 'The files of the data set it read' }),
  read: count('Entries read from those files'),
  added: count('Rows written that were not there'),
  changed: count('Rows that were there and differed: updated'),
  unchanged: count('Rows already as the data set says: left as they are'),
  skipped: count('Entries not written: each counted under its reason'),
  reasons: z
    .array(
      z.object({
        reason: z.string().meta({ description: 'Why' }),
        count: count('Entries skipped for it'),
        entries: z.array(z.string()).meta({ description: 'The first few of them, as `file "key"`' }),
      }),
    )
    .meta({ description: 'Why entries were skipped; empty when none was' }),
});
export type TImportKindReport = z.infer<typeof ZImportKindReport>;

export const ZCommunityImport = z.object({
  kinds: z.array(ZImportKindReport).meta({ description: 'One report per kind, in the order imported' }),
  changed: z
    .boolean()
    .meta({ description: 'Whether anything was written: false on a second run of the same data set' }),
});
export type TCommunityImport = z.infer<typeof ZCommunityImport>;
