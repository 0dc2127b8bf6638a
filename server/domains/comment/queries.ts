// The rows of `assembly_comments` with their author's names and avatar, and their answers.
import { eq, sql } from 'drizzle-orm';
import type { TDb } from '../../../db/client';
import { assemblies, assemblyComments, users } from '../../../db/schema';
import type { TComment, TMyComment } from './schemas';

/**
 * A comment's columns, its author's read straight from `users` (the display name is alternative_name,
 * else the username; the username; the avatar avatar_url) and its assembly's uuid and name. Joins on primary keys;
 * every comment has both (foreign keys, cascading).
 */
const commentColumns = {
  id: assemblyComments.id,
  assemblyId: assemblyComments.assemblyId,
  authorId: assemblyComments.authorId,
  content: assemblyComments.content,
  createdAt: assemblyComments.createdAt,
  updatedAt: assemblyComments.updatedAt,
  authorName: sql<string>`coalesce(nullif(trim(${users.alternativeName}), ''), ${users.username})`,
  authorUsername: users.username,
  authorAvatar: users.avatarUrl,
  assemblyUuid: assemblies.uuid,
  assemblyName: assemblies.name,
};

export function selectComments(db: TDb) {
  return db
    .select(commentColumns)
    .from(assemblyComments)
    .innerJoin(users, eq(users.id, assemblyComments.authorId))
    .innerJoin(assemblies, eq(assemblies.id, assemblyComments.assemblyId));
}

export type TCommentRow = Awaited<ReturnType<ReturnType<typeof selectComments>['all']>>[number];

/** Insertion order among comments of the same millisecond: the table's rowid (in every index of it). */
export const commentRowid = sql<number>`${assemblyComments}.rowid`;

export async function findComment(db: TDb, id: string): Promise<TCommentRow | undefined> {
  return await selectComments(db).where(eq(assemblyComments.id, id)).get();
}

export function toComment(row: TCommentRow): TComment {
  const created = row.createdAt.toISOString();
  return {
    id: row.id,
    content: row.content,
    targetType: 'assembly',
    targetId: row.assemblyUuid,
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

export function toMyComment(row: TCommentRow): TMyComment {
  return { ...toComment(row), assembly: { uuid: row.assemblyUuid, name: row.assemblyName } };
}
