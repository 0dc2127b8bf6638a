import { z } from 'zod';
import { editAssembly, likeAssembly, publishAssembly, rateAssembly, restoreAssembly, trashAssembly } from '../../services/assembly';
import { authedProcedure } from '../../trpc';
import { passwordGuesses } from './password-guesses';
import { ZAssembly, ZAssemblyDraft, ZAssemblyPatch, ZAssemblyUuid, ZLikeInput, ZRateInput } from './schemas';
import { ZTimestamp } from '../../schemas';

export const publish = authedProcedure
  .meta({ openapi: { method: 'POST', path: '/assembly/publish', tags: ['assembly'], protect: true, summary: 'Publish a loadout (validated against the catalog)' } })
  .input(ZAssemblyDraft)
  .output(ZAssembly)
  .mutation(({ input, ctx }) => publishAssembly(ctx.db, ctx.deps.cache, ctx.user.id, input, ctx.deps.now()));

export const edit = authedProcedure
  .meta({ openapi: { method: 'POST', path: '/assembly/edit', tags: ['assembly'], protect: true, summary: 'Change your assembly (partial data, re-validated)' } })
  .input(z.object({ uuid: ZAssemblyUuid, data: ZAssemblyPatch }))
  .output(ZAssembly)
  .mutation(({ input, ctx }) => editAssembly(ctx.db, ctx.deps.cache, ctx.user.id, input.uuid, input.data, ctx.deps.now()));

export const remove = authedProcedure
  .meta({ openapi: { method: 'POST', path: '/assembly/delete', tags: ['assembly'], protect: true, summary: 'Move your assembly to the trash' } })
  .input(z.object({ uuid: ZAssemblyUuid }))
  .output(z.object({ uuid: z.string(), deletedAt: ZTimestamp, purgeAt: ZTimestamp }))
  .mutation(({ input, ctx }) => trashAssembly(ctx.db, ctx.deps.cache, ctx.user.id, input.uuid, ctx.deps.now()));

export const restore = authedProcedure
  .meta({ openapi: { method: 'POST', path: '/assembly/restore', tags: ['assembly'], protect: true, summary: 'Bring your assembly back from the trash' } })
  .input(z.object({ uuid: ZAssemblyUuid }))
  .output(ZAssembly)
  .mutation(({ input, ctx }) => restoreAssembly(ctx.db, ctx.deps.cache, ctx.user.id, input.uuid, ctx.deps.now()));

export const like = authedProcedure
  .meta({ openapi: { method: 'POST', path: '/assembly/like', tags: ['assembly'], protect: true, summary: 'Like (or unlike) an assembly; one like per user' } })
  .input(ZLikeInput)
  .output(z.object({ uuid: z.string(), liked: z.boolean(), likes: z.number().int() }))
  .mutation(({ input, ctx }) => likeAssembly(ctx.db, ctx.deps.cache, ctx.user.id, input, ctx.deps.now(), passwordGuesses(ctx)));

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
  .mutation(({ input, ctx }) => rateAssembly(ctx.db, ctx.deps.cache, ctx.user.id, input, ctx.deps.now(), passwordGuesses(ctx)));
