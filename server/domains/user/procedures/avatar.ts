// Avatars (issue 19): set an https URL or upload a picture, remove it, and serve uploaded ones with
// headers that keep browsers from running them (rest/handler.ts, rawResponse of a type family).
import { httpCaching } from '../../../http/caching';
import { ZNoInput } from '../../../schemas';
import { authedProcedure, publicProcedure, router } from '../../../trpc';
import { getAvatar, removeAvatar, setAvatar } from '../avatar';
import {
  MAX_AVATAR_BYTES,
  MAX_AVATAR_URL,
  ZAvatarImage,
  ZAvatarInput,
  ZAvatarRef,
  type TAvatarImage,
} from '../avatar-schemas';
import { MAX_AVATAR_SIDE, MAX_PIXELS_PER_BYTE } from '../image';
import { ZProfile } from '../schemas';

const set = authedProcedure
  .meta({
    openapi: {
      method: 'PUT',
      path: '/user/avatar',
      tags: ['user'],
      protect: true,
      summary: 'Set your avatar: an https URL or an uploaded picture',
      description:
        `Either \`{ url }\` (https, at most ${MAX_AVATAR_URL} characters, no credentials, a public host: not localhost, a private, loopback or link-local address, or a one-label name) ` +
        `or \`{ image }\` (a base64 data URL, or bare base64 with contentType). ` +
        `A picture must be a PNG, JPEG, WebP or GIF (read from its bytes; never SVG): 415 otherwise or when it is not the declared type, 413 over ${MAX_AVATAR_BYTES} bytes, ` +
        `400 over ${MAX_AVATAR_SIDE} pixels a side or over ${MAX_PIXELS_PER_BYTE} pixels a byte of the file. Each well-formed call (a refused picture too) counts against RATE_LIMIT_AVATAR_UPLOADS per hour (429). ` +
        'Answers your profile: userAvatar is the URL, or for a picture its path here (/api/user/avatar/{id}?v=…).',
    },
  })
  .input(ZAvatarInput)
  .output(ZProfile)
  .mutation(async ({ input, ctx }) => {
    await ctx.deps.limits.avatarUpload.hit(ctx.user.id);
    return setAvatar(ctx.deps, { userId: ctx.user.id, change: input });
  });

const remove = authedProcedure
  .meta({
    openapi: {
      method: 'DELETE',
      path: '/user/avatar',
      tags: ['user'],
      protect: true,
      summary: 'Remove your avatar (back to none)',
    },
  })
  .input(ZNoInput)
  .output(ZProfile)
  .mutation(({ ctx }) => removeAvatar(ctx.deps, { userId: ctx.user.id }));

const get = publicProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/user/avatar/{userId}',
      tags: ['user'],
      protect: false,
      summary: "A user's uploaded avatar (the image itself)",
      description:
        "REST answers the bytes with their type read at upload, X-Content-Type-Options: nosniff, Content-Security-Policy: default-src 'none'; sandbox, " +
        'Content-Disposition: inline and the SHA-256 as ETag (If-None-Match: 304); with the current v, Cache-Control allows a day, else revalidation. ' +
        'Native tRPC answers the bytes in base64. 404 when the user has no uploaded avatar. Errors are envelopes.',
    },
    http: httpCaching<TAvatarImage>({
      etag: (image) => `"${image.etag}"`,
      cacheControl: (image) => (image.versioned ? 'public, max-age=86400' : 'public, no-cache'),
    }),
    rawResponse: { contentType: 'image/*' },
  })
  .input(ZAvatarRef)
  .output(ZAvatarImage)
  .query(({ input, ctx }) => getAvatar(ctx.deps, input));

export const avatarRouter = router({ set, remove, get });
