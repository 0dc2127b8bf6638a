// Comments on assemblies (issue 19) and codex entries (issue 34), at the web client's paths
// (comment_service.ts, user_service.ts).
import { authedProcedure, publicProcedure, router } from '../../trpc';
import { passwordGuesses } from '../assembly';
import { listComments, listMyComments } from './read';
import {
  MAX_COMMENT_LENGTH,
  MAX_COMMENT_WINDOW,
  ZComment,
  ZCommentCreateInput,
  ZCommentDeleted,
  ZCommentDeleteInput,
  ZCommentEditInput,
  ZCommentList,
  ZCommentListInput,
  ZMyCommentList,
  ZMyCommentsInput,
} from './schemas';
import { createComment, deleteComment, editComment } from './write';

const READ_RULE =
  'An assembly: as reading it, 404 when it does not exist, 403 when it is private and you are neither its creator nor sending its password; ' +
  'a trashed assembly is a 404 for everyone but its creator. A codex entry (targetType ship, item, mod, commoditie, cosmetic, mapLocation, material, npc, set, treasureMap, ultimate): ' +
  'public; 404 when the imported community data set has no such entry (item also finds an NPC, treasureMap a map location: what the NPC and map location pages send). ' +
  "A smugglers' report (targetType smugglersReport, its id): published or archived (a draft: 404); writing its comments takes the rights of the privilege tree, one comment each (docs/smugglers.md).";
const WRITE_LIMIT =
  'Creating and editing count against RATE_LIMIT_COMMENTS per 10 minutes per account (429 with Retry-After).';
// Caller-specific (a private assembly's comments, read by its creator or with its password): never kept by shared caches.
const PRIVATE = { cacheControl: 'private, no-cache' };

const list = publicProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/comment/comments',
      tags: ['comment'],
      protect: false,
      summary: 'The comments on an assembly or a codex entry, newest first, paged',
      description:
        `${READ_RULE} Comments switched off by the creator (assembly.attr.isComment: false) stay listed. sortOrder=asc lists oldest first. ` +
        `A list reaches its first ${MAX_COMMENT_WINDOW} comments (page × pageSize above that: 400). content is plain text, never HTML.`,
    },
    http: PRIVATE,
  })
  .input(ZCommentListInput)
  .output(ZCommentList)
  .query(({ input, ctx }) =>
    listComments(ctx.deps, { ...input, viewerId: ctx.auth?.user.id, guesses: passwordGuesses(ctx) }),
  );

const create = authedProcedure
  .meta({
    openapi: {
      method: 'POST',
      path: '/comment',
      tags: ['comment'],
      protect: true,
      summary: 'Comment on an assembly or a codex entry',
      description:
        `content: plain text, 1-${MAX_COMMENT_LENGTH} characters after trimming; control characters other than tab and newline are a 400. ` +
        `Anyone who may read the target (${READ_RULE}) A trashed assembly: 404 (its creator too). Comments switched off by the assembly's creator: 403 (data.key comment.disabled); a codex entry has no creator to switch them off. ` +
        `${WRITE_LIMIT} A captcha answer is optional; when given (captcha from the web client's SVG widget, or captchaCode) it is verified and spent, once only (400 captcha.*). ` +
        'Answers the comment.',
    },
  })
  .input(ZCommentCreateInput)
  .output(ZComment)
  .mutation(({ input, ctx }) =>
    createComment(ctx.deps, {
      targetType: input.targetType,
      targetId: input.targetId,
      content: input.content,
      captcha: input.captcha,
      password: input.password,
      userId: ctx.user.id,
      guesses: passwordGuesses(ctx),
    }),
  );

const edit = authedProcedure
  .meta({
    openapi: {
      method: 'POST',
      path: '/comment/edit',
      tags: ['comment'],
      protect: true,
      summary: 'Edit your comment',
      description:
        'Its author only (403). The same rules as posting it: the content, the target still readable (an assembly: password if private and not yours: 403; trashed: 404) and its comments on (403 comment.disabled). ' +
        `${WRITE_LIMIT} Unknown or deleted comment: 404. Answers the comment, updatedTime the edit's.`,
    },
  })
  .input(ZCommentEditInput)
  .output(ZComment)
  .mutation(({ input, ctx }) =>
    editComment(ctx.deps, { ...input, userId: ctx.user.id, guesses: passwordGuesses(ctx) }),
  );

const remove = authedProcedure
  .meta({
    openapi: {
      method: 'POST',
      path: '/comment/delete',
      tags: ['comment'],
      protect: true,
      summary: 'Delete a comment',
      description:
        "Its author, the assembly's creator or an admin (a codex entry has no creator: its comments are moderated by their authors and the admins); anyone else: 403. Except for an admin, the comment must be visible to you (its assembly readable: password if private and not yours, 403; trashed, 404 but for its creator). " +
        'Deleted for good; comments switched off do not stop it. Unknown or already deleted: 404 (of concurrent deletions, one succeeds).',
    },
  })
  .input(ZCommentDeleteInput)
  .output(ZCommentDeleted)
  .mutation(({ input, ctx }) =>
    deleteComment(ctx.deps, {
      ...input,
      userId: ctx.user.id,
      isAdmin: ctx.user.role === 'admin',
      guesses: passwordGuesses(ctx),
    }),
  );

const mine = authedProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/user/comments',
      tags: ['comment'],
      protect: true,
      summary: 'Your comments, newest first, paged',
      description:
        "Your comments across target types, on what you can read without a password: codex entries, public assemblies and your own (in the trash too), smugglers' reports but drafts; comments on someone else's private or trashed assembly are left out while it is so. " +
        `Each with its target (target: type, id, name; assembly: uuid and name, null for a codex entry). A list reaches its first ${MAX_COMMENT_WINDOW} comments.`,
    },
    http: PRIVATE,
  })
  .input(ZMyCommentsInput.prefault({}))
  .output(ZMyCommentList)
  .query(({ input, ctx }) => listMyComments(ctx.deps, { ...input, userId: ctx.user.id }));

export const commentRouter = router({ list, create, edit, delete: remove, mine });
