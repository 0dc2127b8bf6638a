/**
 * What comments and likes are of (issue 34): one entry per target type, named as the community web
 * client sends it (CommentWidget `type`, LikeWidget `targetType`). An entry says what its ids look
 * like, how a target is found, where the client sends it, and what else a like of it keeps. Both
 * mechanisms (comments: server/domains/comment/, likes: likes.ts) read every target through this table
 * and apply one set of rules to the facts an entry gives (TTarget), so adding a target type (issue
 * 35's smugglersReport) is adding its entry here.
 *
 * A target is stored as (type, id): an assembly's uuid, or a codex entry's kind and id. A type the
 * client sends for more than one kind (the NPC page's like button sends `item` with an NPC's id)
 * searches those kinds in order and stores the kind found, so every page reads what it wrote.
 */
import { and, eq, ne, type SQL, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { TDb } from '../../../db/client';
import { assemblies, codexEntries, likes, smugglersReports } from '../../../db/schema';
import type { TDepsOf } from '../../deps';
import { findCodexEntry } from '../codex';
import { type TCodexKind, ZCodexId } from '../codex/schemas';
import { assertMayCommentOnReport, findReportTarget, REPORT_TARGET_ID } from '../smugglers';
import { ZAssemblyUuid } from './fields';
import { invalidateAssembly, type TAssemblyCaches } from './item';

/** A target as stored: its type and id. */
export type TTargetKey = Pick<TTarget, 'type' | 'id'>;

/** The facts of a target the rules of comments and likes read. */
export interface TTarget {
  /** The type it is stored under (a codex entry's kind). */
  type: TTargetType;
  /** Its id as stored and answered: an assembly's uuid, a codex entry's id. */
  id: string;
  name: string;
  /** The read rule's facts (access.ts assertReadable): a codex entry is public and has no creator. */
  isPublic: boolean;
  creatorId: string | null;
  passwordHash: string | null;
  /** When it went to the trash (assemblies); null otherwise. */
  deletedAt: Date | null;
  /** Its creator's switches (assembly.attr.isComment, isLike); a target without a creator has both on. */
  commentsOn: boolean;
  likesOn: boolean;
}

interface TTargetEntry {
  /** The form of its ids, checked with the input (a 400 at targetId) and normalised (an assembly's uuid in lower case). */
  id: z.ZodType<string, string>;
  /** What messages call it: `Assembly <uuid>`, `Codex ship "dhow"`. */
  label(id: string): string;
  /** What "your own ..." calls it. */
  noun: string;
  /** The target with this (normalised) id, in the trash too; undefined when there is none. */
  find(db: TDb, id: string): Promise<TTarget | undefined>;
  /** Where the web client sends it (its file and line), as docs/compatibility.md and test/web-client/ name it. */
  client: string;
  /**
   * The target's state as a like's transaction reads it, as SQL of one value: null when it is not
   * there (or in the trash), 'off' when its likes are switched off, 'on' otherwise. Given `viewerId`
   * (the caller's read rule not checked yet), 'check' when that rule needs more than SQL can tell (a
   * private target, its own), and undefined when the type cannot tell without reading the target
   * first (a type the client sends for several kinds).
   */
  likeState(id: string, viewerId?: string): SQL | undefined;
  /** A statement of a like's transaction: keep the target's count where its answers read it. */
  likesCounted?(tx: TDb, target: TTargetKey): unknown;
  /** After a like's transaction: cached answers that show the count. */
  likesChanged?(deps: TAssemblyCaches, target: TTargetKey): Promise<void>;
  /**
   * Who may write its comments beyond the rules of every comment (a 403): a smugglers' report's
   * privileges. Checked before the write and again in its transaction.
   */
  assertMayComment?(
    deps: TDepsOf<'db' | 'now'>,
    input: { target: TTarget; userId: string; action: 'create' | 'edit' | 'delete' },
  ): Promise<void>;
  /** At most one comment per author (a smugglers' report: each connoisseur's appraisal): a second is a 409. */
  oneCommentPerAuthor?: boolean;
}

const assemblyColumns = {
  uuid: assemblies.uuid,
  name: assemblies.name,
  isPublic: assemblies.isPublic,
  creatorId: assemblies.creatorId,
  passwordHash: assemblies.passwordHash,
  deletedAt: assemblies.deletedAt,
  client: assemblies.client,
};

const assembly: TTargetEntry = {
  id: ZAssemblyUuid,
  label: (id) => `Assembly ${id}`,
  noun: 'assembly',
  async find(db, uuid) {
    const row = await db.select(assemblyColumns).from(assemblies).where(eq(assemblies.uuid, uuid)).get();
    if (!row) return undefined;
    // The creator's display settings (client.attr), as the assembly's queries read them.
    const attr = (JSON.parse(row.client) as { attr?: { isComment?: unknown; isLike?: unknown } }).attr;
    return {
      type: 'assembly',
      id: row.uuid,
      name: row.name,
      isPublic: row.isPublic,
      creatorId: row.creatorId,
      passwordHash: row.passwordHash,
      deletedAt: row.deletedAt,
      commentsOn: attr?.isComment !== false,
      likesOn: attr?.isLike !== false,
    };
  },
  client: 'src/views/assembly/Detail.vue:207 (LikeWidget), :288 (CommentWidget)',
  likeState: (uuid, viewerId) => sql`(select case
      ${viewerId === undefined ? sql`` : sql`when not ${assemblies.isPublic} or ${assemblies.creatorId} is ${viewerId} then 'check'`}
      when json_type(${assemblies.client}, '$.attr.isLike') = 'false' then 'off' else 'on' end
    from ${assemblies} where ${assemblies.uuid} = ${uuid} and ${assemblies.deletedAt} is null)`,
  // Its sorts (sort=hottest) and answers read the count from the row.
  likesCounted(tx, target) {
    const counted = sql`(select count(*) from ${likes} where ${likes.targetType} = 'assembly' and ${likes.targetId} = ${target.id})`;
    return tx
      .update(assemblies)
      .set({ likes: counted })
      .where(and(eq(assemblies.uuid, target.id), ne(assemblies.likes, counted)));
  },
  likesChanged: (deps, target) => invalidateAssembly(deps, { uuid: target.id }),
};

/** A target type of the codex: entries of the community data set, of these kinds tried in order. */
function codex(kinds: readonly [TCodexKind, ...TCodexKind[]], client: string): TTargetEntry {
  return {
    id: ZCodexId,
    label: (id) => `Codex ${kinds[0]} ${JSON.stringify(id)}`,
    noun: kinds[0],
    async find(db, id) {
      const entry = await findCodexEntry(db, kinds, id);
      if (!entry) return undefined;
      return {
        type: entry.kind,
        id: entry.id,
        name: entry.name,
        isPublic: true,
        creatorId: null,
        passwordHash: null,
        deletedAt: null,
        commentsOn: true,
        likesOn: true,
      };
    },
    // A type of one kind stores what the client sends; of several, the kind found decides (the
    // target read first: its entry is the one of that kind, `kinds[0]`).
    likeState: (id, viewerId) =>
      viewerId !== undefined && kinds.length > 1
        ? undefined
        : sql`(select 'on' from ${codexEntries} where ${codexEntries.kind} = ${kinds[0]} and ${codexEntries.id} = ${id})`,
    client,
  };
}

/**
 * A smugglers' weekly report (issue 35): published or archived (a draft is no target), commented on
 * by the holders of the rights of the privilege tree, one comment each; never liked (the client has
 * no like button for it).
 */
const smugglersReport: TTargetEntry = {
  id: z.string().regex(REPORT_TARGET_ID, "must be a report's id (a number)"),
  label: (id) => `Smugglers report ${id}`,
  noun: 'smugglers report',
  async find(db, id) {
    const report = await findReportTarget(db, id);
    if (!report) return undefined;
    return {
      type: 'smugglersReport',
      id: report.id,
      name: report.title,
      isPublic: true,
      creatorId: report.authorId,
      passwordHash: null,
      deletedAt: null,
      commentsOn: true,
      likesOn: false,
    };
  },
  likeState: (id) =>
    sql`(select 'off' from ${smugglersReports} where ${smugglersReports.id} = ${Number(id)} and ${smugglersReports.status} <> 'draft')`,
  client:
    'src/views/user/account/smugglersReport.vue:257, :288, :318 (through smugglers/reports/{id}/comments); src/views/smugglers/View.vue:68',
  assertMayComment: (deps, { target, userId, action }) =>
    assertMayCommentOnReport(deps, { reportAuthorId: target.creatorId!, userId, action }),
  oneCommentPerAuthor: true,
};

/** Every target type; the client's files are under src/views/codex/ unless named otherwise. */
export const TARGETS = {
  assembly,
  ship: codex(['ship'], 'ships/Detail.vue:180 (LikeWidget), :297 (CommentWidget)'),
  // The NPC page's LikeWidget sends `item` with the NPC's id (npcs/Detail.vue:160): found among the NPCs.
  item: codex(['item', 'npc'], 'items/Detail.vue:226, :428; npcs/Detail.vue:160 (its LikeWidget)'),
  commoditie: codex(['commoditie'], 'commodities/Detail.vue:169, :242'),
  cosmetic: codex(['cosmetic'], 'cosmetics/Detail.vue:107, :166'),
  mapLocation: codex(['mapLocation'], 'mapLocations/Detail.vue:91 (LikeWidget)'),
  material: codex(['material'], 'materials/Detail.vue:109, :168'),
  mod: codex(['mod'], 'modifications/Detail.vue:98, :164'),
  npc: codex(['npc'], 'npcs/Detail.vue:250 (CommentWidget)'),
  set: codex(['set'], 'sets/Detail.vue:153, :226'),
  // The map location page's CommentWidget sends `treasureMap` with the location's id (mapLocations/Detail.vue:149).
  treasureMap: codex(
    ['treasureMap', 'mapLocation'],
    'treasureMaps/Detail.vue:117, :194; mapLocations/Detail.vue:149 (its CommentWidget)',
  ),
  ultimate: codex(['ultimate'], 'ultimates/Detail.vue:129, :185'),
  smugglersReport,
} satisfies Record<'assembly' | TCodexKind | 'smugglersReport', TTargetEntry>;

export type TTargetType = keyof typeof TARGETS;
export const TARGET_TYPES = Object.keys(TARGETS) as [TTargetType, ...TTargetType[]];

export function isTargetType(type: string): type is TTargetType {
  return Object.hasOwn(TARGETS, type);
}

/** The entry of a type: the form of its ids, how messages name it, what a like of it keeps. */
export function targetEntry(type: TTargetType): TTargetEntry {
  return TARGETS[type];
}

/**
 * The target a client names (its id in the type's form: the input's check ran), in the trash too;
 * undefined when there is none. The id is normalised first (an assembly's uuid in lower case).
 */
export async function findTarget(db: TDb, type: TTargetType, id: string): Promise<TTarget | undefined> {
  const entry: TTargetEntry = TARGETS[type];
  return entry.find(db, entry.id.parse(id));
}

/** A target type's check of targetId, for the inputs that name a target: an issue at targetId when its form is wrong. */
export function checkTargetId(input: { targetType: TTargetType; targetId: string }, check: z.RefinementCtx): void {
  const entry: TTargetEntry = TARGETS[input.targetType];
  const parsed = entry.id.safeParse(input.targetId);
  if (!parsed.success)
    for (const issue of parsed.error.issues)
      check.addIssue({
        code: 'custom',
        path: ['targetId'],
        message: `${issue.message} (targetType ${input.targetType})`,
      });
}
