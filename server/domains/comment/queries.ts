// The rows of `comments` with their author's names and avatar, and their answers.
import { and, asc, count, desc, eq, isNotNull, ne, or, sql } from 'drizzle-orm';
import type { SQLiteSelect } from 'drizzle-orm/sqlite-core';
import type { TDb } from '../../../db/client';
import { assemblies, codexEntries, comments, smugglersReports, users } from '../../../db/schema';
import type { TTargetType } from '../assembly';
import type { TComment, TMyComment } from './schemas';

/**
 * A comment's columns, its author's read straight from `users` (the display name is alternative_name,
 * else the username; the username; the avatar avatar_url). Joins on the primary key; every comment has
 * its author (a foreign key, cascading).
 */
const commentColumns = {
  id: comments.id,
  targetType: comments.targetType,
  targetId: comments.targetId,
  authorId: comments.authorId,
  content: comments.content,
  createdAt: comments.createdAt,
  updatedAt: comments.updatedAt,
  authorName: sql<string>`coalesce(nullif(trim(${users.alternativeName}), ''), ${users.username})`,
  authorUsername: users.username,
  authorAvatar: users.avatarUrl,
};

export function selectComments(db: TDb) {
  return db.select(commentColumns).from(comments).innerJoin(users, eq(users.id, comments.authorId));
}

export type TCommentRow = Awaited<ReturnType<ReturnType<typeof selectComments>['all']>>[number];

/** Insertion order among comments of the same millisecond: the table's rowid (in every index of it). */
export const commentRowid = sql<number>`${comments}.rowid`;

export async function findComment(db: TDb, id: string): Promise<TCommentRow | undefined> {
  return await selectComments(db).where(eq(comments.id, id)).get();
}

export function toComment(row: TCommentRow): TComment {
  const created = row.createdAt.toISOString();
  return {
    id: row.id,
    content: row.content,
    targetType: row.targetType as TTargetType,
    targetId: row.targetId,
    userId: row.authorId,
    userName: row.authorName,
    // Always the sign-in name, which no other account can take or imitate (user/names.ts): the web
    // client's CommentWidget.vue shows this one, so a display name cannot pass for someone else there.
    username: row.authorUsername,
    userAvatar: row.authorAvatar ?? null,
    createTime: created,
    createdTime: created,
    updatedTime: row.updatedAt.toISOString(),
  };
}

/** A target's comments: one range of the index (target_type, target_id, created_at), in `order`. */
export function selectTargetComments(db: TDb, target: { type: string; id: string }, order: 'asc' | 'desc') {
  const by = order === 'asc' ? asc : desc;
  return selectComments(db)
    .where(and(eq(comments.targetType, target.type), eq(comments.targetId, target.id)))
    .orderBy(by(comments.createdAt), by(commentRowid))
    .$dynamic();
}

export function countTargetComments(db: TDb, target: { type: string; id: string }) {
  return db
    .select({ n: count() })
    .from(comments)
    .where(and(eq(comments.targetType, target.type), eq(comments.targetId, target.id)));
}

function joinTargets<T extends SQLiteSelect>(query: T) {
  return query
    .leftJoin(assemblies, and(eq(comments.targetType, 'assembly'), eq(assemblies.uuid, comments.targetId)))
    .leftJoin(codexEntries, and(eq(codexEntries.kind, comments.targetType), eq(codexEntries.id, comments.targetId)))
    .leftJoin(
      smugglersReports,
      and(
        eq(comments.targetType, 'smugglersReport'),
        eq(smugglersReports.id, sql`cast(${comments.targetId} as integer)`),
      ),
    );
}

/**
 * An author's comments with their targets' names, newest first: a backward walk of the index
 * (author_id, created_at); each comment's assembly is a lookup of its uuid, its codex entry a lookup
 * of the key, its smugglers' report of the id. Only comments on targets the author may read without a
 * password: a codex entry, a public assembly not in the trash, the author's own assembly (in the trash
 * too), or a smugglers' report that is not a draft.
 */
export function selectMyComments(db: TDb, authorId: string) {
  return joinTargets(
    db
      .select({
        ...commentColumns,
        assemblyName: assemblies.name,
        codexName: codexEntries.name,
        reportTitle: smugglersReports.title,
      })
      .from(comments)
      .innerJoin(users, eq(users.id, comments.authorId))
      .$dynamic(),
  )
    .where(myCommentsWhere(authorId))
    .orderBy(desc(comments.createdAt), desc(commentRowid));
}

export function countMyComments(db: TDb, authorId: string) {
  return joinTargets(db.select({ n: count() }).from(comments).$dynamic()).where(myCommentsWhere(authorId));
}

function myCommentsWhere(authorId: string) {
  return and(
    eq(comments.authorId, authorId),
    or(
      isNotNull(codexEntries.id),
      sql`${assemblies.isPublic} = 1 and ${assemblies.deletedAt} is null`,
      eq(assemblies.creatorId, authorId),
      and(isNotNull(smugglersReports.id), ne(smugglersReports.status, 'draft')),
    ),
  );
}

export type TMyCommentRow = Awaited<ReturnType<ReturnType<typeof selectMyComments>['all']>>[number];

export function toMyComment(row: TMyCommentRow): TMyComment {
  const name = row.assemblyName ?? row.codexName ?? row.reportTitle ?? row.targetId;
  return {
    ...toComment(row),
    target: { type: row.targetType as TTargetType, id: row.targetId, name },
    assembly: row.targetType === 'assembly' ? { uuid: row.targetId, name } : null,
  };
}
