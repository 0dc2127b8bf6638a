// The web client's likes (GlowProw/website stores/likeStore.ts): the paths and shapes it uses, on
// every target type (targets.ts), through the one mechanism of likes.ts. Limits as every write: the
// global per-client budget, and a private assembly's password guesses counted as on every read of it.
// likeStore.ts reads `isLiked` and `likeCount` at the top level of the body (:25, :47, :66): the REST
// answer also carries them there (meta.topLevel), beside the envelope.
import { AppError } from '../../../errors';
import { authedProcedure, publicProcedure, router } from '../../../trpc';
import { passwordGuesses } from '../access';
import { checkLike, likeCount, setLike } from '../likes';
import { ZLikeCheck, ZLikeCount, ZLikeTargetInput, ZLikeToggle, ZLikeToggleInput } from '../like-schemas';

const READ_RULE =
  'An assembly: anyone who can read it (a private one: its creator, or with its password); 404 when it does not exist or is in the trash, 403 when it cannot be read. ' +
  'A codex entry (ship, item, mod, ...): anyone; 404 when the imported community data set has no such entry (item also finds an NPC, treasureMap a map location: what the NPC and map location pages send).';
const TOP_LEVEL =
  'The REST body also carries the answer at its top level, beside the envelope (as the web client reads it)';

const check = authedProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/likes/check',
      tags: ['assembly'],
      protect: true,
      summary: 'Whether you like an assembly or a codex entry',
      description: `The web client's like button (LikeWidget). ${READ_RULE} The same likes as POST /assembly/like. ${TOP_LEVEL}: isLiked.`,
    },
    topLevel: { isLiked: 'isLiked' },
  })
  .input(ZLikeTargetInput)
  .output(ZLikeCheck)
  .query(({ input, ctx }) => checkLike(ctx.deps, { ...input, viewerId: ctx.user.id, guesses: passwordGuesses(ctx) }));

const toggle = authedProcedure
  .meta({
    openapi: {
      method: 'POST',
      path: '/likes/toggle',
      tags: ['assembly'],
      protect: true,
      summary: 'Like an assembly or a codex entry, or take your like back',
      description:
        `Flips your like (one per user; the same likes as POST /assembly/like) and answers the new state and count. ${READ_RULE} ` +
        'Your own assembly: 403. userId, if sent, must be your own id (403 otherwise). Likes switched off by the creator (assembly.attr.isLike: false): a new like is a 403 (data.key assembly.likesDisabled), taking yours back works. ' +
        `Concurrent toggles are applied one after the other. ${TOP_LEVEL}: isLiked, likeCount.`,
    },
    topLevel: { isLiked: 'isLiked', likeCount: 'likeCount' },
  })
  .input(ZLikeToggleInput)
  .output(ZLikeToggle)
  .mutation(async ({ input, ctx }) => {
    if (input.userId !== undefined && input.userId !== ctx.user.id)
      throw new AppError('FORBIDDEN', 'userId is not yours: you can only like as yourself');
    const result = await setLike(ctx.deps, {
      targetType: input.targetType,
      targetId: input.targetId,
      userId: ctx.user.id,
      like: 'toggle',
      password: input.password,
      guesses: passwordGuesses(ctx),
    });
    return {
      targetType: result.target.type,
      targetId: result.target.id,
      isLiked: result.liked,
      likeCount: result.likeCount,
    };
  });

const count = publicProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/likes/count',
      tags: ['assembly'],
      protect: false,
      summary: 'How many users like an assembly or a codex entry',
      description: `A count over the likes of the target. ${READ_RULE} ${TOP_LEVEL}: likeCount.`,
    },
    topLevel: { likeCount: 'likeCount' },
  })
  .input(ZLikeTargetInput)
  .output(ZLikeCount)
  .query(({ input, ctx }) =>
    likeCount(ctx.deps, { ...input, viewerId: ctx.auth?.user.id, guesses: passwordGuesses(ctx) }),
  );

export const likesRouter = router({ check, toggle, count });
