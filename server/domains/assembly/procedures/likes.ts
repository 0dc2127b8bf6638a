// The web client's likes (GlowProw/website stores/likeStore.ts): the paths and shapes it uses, on the
// rows and writer of POST /assembly/like (votes.ts). Limits as that write: the global per-client
// budget, and a private assembly's password guesses counted as on every other read of it.
import { AppError } from '../../../errors';
import { authedProcedure, publicProcedure, router } from '../../../trpc';
import { passwordGuesses } from '../access';
import { checkLike, likeCount } from '../likes';
import { ZLikeCheck, ZLikeCount, ZLikeTargetInput, ZLikeToggle, ZLikeToggleInput } from '../like-schemas';
import { likeAssembly } from '../votes';

const READ_RULE =
  'Anyone who can read the assembly (a private one: its creator, or with its password); 404 when it does not exist or is in the trash, 403 when it cannot be read. ' +
  'targetType other than assembly: 400.';

const check = authedProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/likes/check',
      tags: ['assembly'],
      protect: true,
      summary: 'Whether you like an assembly',
      description: `The web client's like button (LikeWidget). ${READ_RULE} The same likes as POST /assembly/like.`,
    },
  })
  .input(ZLikeTargetInput)
  .output(ZLikeCheck)
  .query(async ({ input, ctx }) => ({
    targetType: input.targetType,
    targetId: input.targetId,
    ...(await checkLike(ctx.deps, {
      uuid: input.targetId,
      viewerId: ctx.user.id,
      password: input.password,
      guesses: passwordGuesses(ctx),
    })),
  }));

const toggle = authedProcedure
  .meta({
    openapi: {
      method: 'POST',
      path: '/likes/toggle',
      tags: ['assembly'],
      protect: true,
      summary: 'Like an assembly, or take your like back',
      description:
        `Flips your like (one per user; the same likes as POST /assembly/like) and answers the new state and count. ${READ_RULE} ` +
        'Your own assembly: 403. userId, if sent, must be your own id (403 otherwise). Likes switched off by the creator (assembly.attr.isLike: false): a new like is a 403 (data.key assembly.likesDisabled), taking yours back works. Concurrent toggles are applied one after the other.',
    },
  })
  .input(ZLikeToggleInput)
  .output(ZLikeToggle)
  .mutation(async ({ input, ctx }) => {
    if (input.userId !== undefined && input.userId !== ctx.user.id)
      throw new AppError('FORBIDDEN', 'userId is not yours: you can only like as yourself');
    const result = await likeAssembly(ctx.deps, {
      uuid: input.targetId,
      userId: ctx.user.id,
      like: 'toggle',
      password: input.password,
      guesses: passwordGuesses(ctx),
    });
    return { targetType: input.targetType, targetId: input.targetId, isLiked: result.liked, likeCount: result.likes };
  });

const count = publicProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/likes/count',
      tags: ['assembly'],
      protect: false,
      summary: 'How many users like an assembly',
      description: `The likes field of the assembly. ${READ_RULE}`,
    },
  })
  .input(ZLikeTargetInput)
  .output(ZLikeCount)
  .query(async ({ input, ctx }) => ({
    targetType: input.targetType,
    targetId: input.targetId,
    ...(await likeCount(ctx.deps, {
      uuid: input.targetId,
      viewerId: ctx.auth?.user.id,
      password: input.password,
      guesses: passwordGuesses(ctx),
    })),
  }));

export const likesRouter = router({ check, toggle, count });
