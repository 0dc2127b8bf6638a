import { z } from 'zod';
import { editAssembly, itemEtag, likeAssembly, publishAssembly, rateAssembly, restoreAssembly, trashAssembly } from '../service';
import { authedProcedure } from '../../../trpc';
import { passwordGuesses } from '../password-guesses';
import { ZAssembly, ZAssemblyDraft, ZAssemblyPatch, ZAssemblyUuid, ZLikeInput, ZRateInput } from '../schemas';
import { ZTimestamp } from '../../../schemas';

export const publish = authedProcedure
  .meta({ openapi: { method: 'POST', path: '/assembly/publish', tags: ['assembly'], protect: true, summary: 'Publish a loadout (validated against the catalog)' } })
  .input(ZAssemblyDraft)
  .output(ZAssembly)
  .mutation(({ input, ctx }) => publishAssembly(ctx.db, ctx.deps.caches.lru, ctx.user.id, input, ctx.deps.now()));

const IF_MATCH_DESCRIPTION =
  'Optimistic concurrency: the ETag of GET /assembly/item (or of an earlier edit), or a comma-separated list of them, or *. ' +
  'The edit is made only if the assembly still has it; otherwise a 412 and nothing is written. The ETag does not change with the view count.';

export const edit = authedProcedure
  .meta({
    openapi: {
      method: 'POST',
      path: '/assembly/edit',
      tags: ['assembly'],
      protect: true,
      summary: 'Change your assembly (partial data, re-validated)',
      description:
        'Writes only the fields given in data. Send If-Match with the ETag from GET /assembly/item to refuse the edit (412) if the assembly changed since you read it; ' +
        'the body field ifMatch is the same precondition (native tRPC clients set it). The answer carries the new ETag. ' +
        '412: the assembly changed since that ETag (nothing was written); 404: not found or in the trash; 403: not the creator.',
      requestHeaders: z.object({ 'if-match': z.string().optional().meta({ description: IF_MATCH_DESCRIPTION }) }),
    },
    // The next conditional edit can use the answer's ETag without reading the item again.
    http: { etag: itemEtag },
  })
  .input(
    z.object({
      uuid: ZAssemblyUuid,
      data: ZAssemblyPatch,
      ifMatch: z.string().min(1, 'must not be empty').max(1024, 'must be at most 1024 characters').optional().meta({ description: IF_MATCH_DESCRIPTION }),
    }),
  )
  .output(ZAssembly)
  .mutation(async ({ input, ctx }) => {
    const { view } = await editAssembly(ctx.db, ctx.deps.caches.lru, ctx.user.id, input.uuid, input.data, ctx.deps.now(), { ifMatch: input.ifMatch });
    return view;
  });

export const remove = authedProcedure
  .meta({ openapi: { method: 'POST', path: '/assembly/delete', tags: ['assembly'], protect: true, summary: 'Move your assembly to the trash' } })
  .input(z.object({ uuid: ZAssemblyUuid }))
  .output(z.object({ uuid: z.string(), deletedAt: ZTimestamp, purgeAt: ZTimestamp }))
  .mutation(({ input, ctx }) => trashAssembly(ctx.db, ctx.deps.caches.lru, ctx.user.id, input.uuid, ctx.deps.now()));

export const restore = authedProcedure
  .meta({ openapi: { method: 'POST', path: '/assembly/restore', tags: ['assembly'], protect: true, summary: 'Bring your assembly back from the trash', description: 'Only your own trash: anything else (not trashed, not yours, unknown) is a 404.' } })
  .input(z.object({ uuid: ZAssemblyUuid }))
  .output(ZAssembly)
  .mutation(({ input, ctx }) => restoreAssembly(ctx.db, ctx.deps.caches.lru, ctx.user.id, input.uuid, ctx.deps.now()));

export const like = authedProcedure
  .meta({ openapi: { method: 'POST', path: '/assembly/like', tags: ['assembly'], protect: true, summary: 'Like (or unlike) an assembly; one like per user' } })
  .input(ZLikeInput)
  .output(z.object({ uuid: z.string(), liked: z.boolean(), likes: z.number().int() }))
  .mutation(({ input, ctx }) => likeAssembly(ctx.db, ctx.deps.caches.lru, ctx.user.id, input, ctx.deps.now(), passwordGuesses(ctx)));

export const rate = authedProcedure
  .meta({ openapi: { method: 'POST', path: '/assembly/rate', tags: ['assembly'], protect: true, summary: 'Rate an assembly 1 to 5; rating again changes your score' } })
  .input(ZRateInput)
  .output(
    z.object({
      uuid: z.string(),
      yourScore: z.number().int(),
      rating: z.object({ average: z.number().nullable(), count: z.number().int(), smoothed: z.number() }),
    }),
  )
  .mutation(({ input, ctx }) => rateAssembly(ctx.db, ctx.deps.caches.lru, ctx.user.id, input, ctx.deps.now(), passwordGuesses(ctx)));
