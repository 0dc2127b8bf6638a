/**
 * Avatars (issue 19): an https URL the user gives, or an uploaded picture kept in `user_avatars` (so
 * a backup holds it and every instance serves it) and served at GET /user/avatar/{userId}. Either
 * way `users.avatar_url` holds the one URL every answer gives as `userAvatar`: for an upload, this
 * service's own path with the picture's version, so a new picture is a new URL for caches.
 */
import { createHash } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { userAvatars } from '../../../db/schema';
import { transaction } from '../../../db/transaction';
import type { TDepsOf } from '../../deps';
import { AppError } from '../../errors';
import { MAX_AVATAR_BYTES, type TAvatarChange, type TAvatarImage } from './avatar-schemas';
import { AVATAR_TYPES, MAX_AVATAR_SIDE, MAX_PIXELS_PER_BYTE, sniffImage, type TAvatarType } from './image';
import { updateOwnProfile } from './profile';
import type { TProfile } from './schemas';
import type { TAssemblyCaches } from '../assembly';

/** How many hex digits of the picture's SHA-256 its URL carries as `v`. */
const VERSION_LENGTH = 16;

/** The path of an uploaded avatar, with its version: what `userAvatar` answers for it. */
export function avatarPath(userId: string, etag: string): string {
  return `/api/user/avatar/${encodeURIComponent(userId)}?v=${etag.slice(0, VERSION_LENGTH)}`;
}

function imageError<C extends 'BAD_REQUEST' | 'PAYLOAD_TOO_LARGE' | 'UNSUPPORTED_MEDIA_TYPE'>(
  code: C,
  message: string,
): AppError<C> {
  return new AppError(code, message, { issues: [{ path: 'image', message }] });
}

/**
 * The picture's bytes and real type: 415 unless they are a PNG, JPEG, WebP or GIF of the declared type,
 * 413 over the size limit, 400 over the pixel limits (a side, and pixels a byte: image.ts).
 */
function checkedImage(change: Extract<TAvatarChange, { kind: 'image' }>): { type: TAvatarType; bytes: Buffer } {
  const declared = change.declaredType === 'image/jpg' ? 'image/jpeg' : change.declaredType;
  if (!(AVATAR_TYPES as readonly string[]).includes(declared)) {
    throw imageError(
      'UNSUPPORTED_MEDIA_TYPE',
      `Unsupported image type ${JSON.stringify(change.declaredType.slice(0, 60))}: send image/png, image/jpeg, image/webp or image/gif`,
    );
  }
  // Judged before decoding: base64 carries 3 bytes in 4 characters, less its padding.
  const padding = change.base64.endsWith('==') ? 2 : change.base64.endsWith('=') ? 1 : 0;
  const size = (change.base64.length / 4) * 3 - padding;
  if (size > MAX_AVATAR_BYTES)
    throw imageError('PAYLOAD_TOO_LARGE', `The image has ${size} bytes; at most ${MAX_AVATAR_BYTES} are accepted`);
  const bytes = Buffer.from(change.base64, 'base64');
  const sniffed = sniffImage(bytes);
  if (!sniffed) throw imageError('UNSUPPORTED_MEDIA_TYPE', 'The image is not a PNG, JPEG, WebP or GIF');
  if (sniffed.type !== declared)
    throw imageError('UNSUPPORTED_MEDIA_TYPE', `The image is ${sniffed.type}, not the declared ${declared}`);
  if (sniffed.width < 1 || sniffed.height < 1 || sniffed.width > MAX_AVATAR_SIDE || sniffed.height > MAX_AVATAR_SIDE) {
    throw imageError(
      'BAD_REQUEST',
      `The image is ${sniffed.width} × ${sniffed.height} pixels; each side must be 1 to ${MAX_AVATAR_SIDE}`,
    );
  }
  if (sniffed.width * sniffed.height > bytes.length * MAX_PIXELS_PER_BYTE) {
    throw imageError(
      'BAD_REQUEST',
      `The image claims ${sniffed.width} × ${sniffed.height} pixels in ${bytes.length} bytes; at most ${MAX_PIXELS_PER_BYTE} pixels a byte are accepted (send it smaller)`,
    );
  }
  return { type: sniffed.type, bytes };
}

/**
 * PUT /user/avatar: a URL, or an uploaded picture checked here (its hash taken before the
 * transaction); the row of the picture and the profile's URL are written together, so every answer
 * names the picture that is stored. A URL drops an uploaded picture.
 */
export async function setAvatar(
  deps: TDepsOf<'db' | 'now'> & TAssemblyCaches,
  { userId, change }: { userId: string; change: TAvatarChange },
): Promise<TProfile> {
  const profile = await writeAvatar(deps, { userId, change });
  await dropCachedAssemblies(deps);
  return profile;
}

/**
 * Assembly items and list pages carry their creator's avatar (`userAvatar`): a change drops every
 * cached one. Avatar changes are rare (RATE_LIMIT_AVATAR_UPLOADS per hour and account), and which
 * cached pages show this user is not tracked.
 */
async function dropCachedAssemblies(deps: TAssemblyCaches): Promise<void> {
  await Promise.all([deps.caches.item.invalidateAll(), deps.caches.list.invalidateAll()]);
}

async function writeAvatar(
  deps: TDepsOf<'db' | 'now'>,
  { userId, change }: { userId: string; change: TAvatarChange },
): Promise<TProfile> {
  const now = deps.now();
  if (change.kind === 'url') {
    return transaction(deps.db, async (tx) => {
      const profile = await updateOwnProfile({ db: tx, now: () => now }, { userId, set: { avatarUrl: change.url } });
      await tx.delete(userAvatars).where(eq(userAvatars.userId, userId));
      return profile;
    });
  }
  const { type, bytes } = checkedImage(change);
  const etag = createHash('sha256').update(bytes).digest('hex');
  return transaction(deps.db, async (tx) => {
    // The profile first: an account deleted meanwhile is a 401 and nothing is written.
    const profile = await updateOwnProfile(
      { db: tx, now: () => now },
      { userId, set: { avatarUrl: avatarPath(userId, etag) } },
    );
    const picture = { contentType: type, bytes, etag, updatedAt: now };
    await tx
      .insert(userAvatars)
      .values({ userId, ...picture })
      .onConflictDoUpdate({ target: userAvatars.userId, set: picture });
    return profile;
  });
}

/** DELETE /user/avatar: back to none (the uploaded picture, if any, is deleted with it). */
export async function removeAvatar(
  deps: TDepsOf<'db' | 'now'> & TAssemblyCaches,
  { userId }: { userId: string },
): Promise<TProfile> {
  const now = deps.now();
  const profile = await transaction(deps.db, async (tx) => {
    const changed = await updateOwnProfile({ db: tx, now: () => now }, { userId, set: { avatarUrl: null } });
    await tx.delete(userAvatars).where(eq(userAvatars.userId, userId));
    return changed;
  });
  await dropCachedAssemblies(deps);
  return profile;
}

/** GET /user/avatar/{userId}: the uploaded picture; 404 when the user has none (a URL avatar is served by its own host). */
export async function getAvatar(
  deps: TDepsOf<'db'>,
  { userId, v }: { userId: string; v?: string },
): Promise<TAvatarImage> {
  const row = await deps.db.select().from(userAvatars).where(eq(userAvatars.userId, userId)).get();
  if (!row) throw new AppError('NOT_FOUND', 'This user has no uploaded avatar');
  return {
    userId,
    contentType: row.contentType as TAvatarType,
    base64: row.bytes.toString('base64'),
    etag: row.etag,
    versioned: v !== undefined && v === row.etag.slice(0, VERSION_LENGTH),
  };
}
