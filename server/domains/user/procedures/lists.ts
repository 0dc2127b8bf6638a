// A user's lists (issue 19): their own (user/me/assemblys, user/likes) and their public space
// (user/space/assemblys, user/space/likes); assemblies in the list item form of GET /assembly/list,
// likes across target types (issue 34). The queries are server/domains/assembly/user-lists.ts.
import { MAX_LIST_WINDOW, ZUserLikesPage } from '../../assembly/schemas';
import { listLikes, listOwnAssemblies } from '../../assembly';
import { authedProcedure, publicProcedure, router } from '../../../trpc';
import { spaceAssemblies, spaceLikes } from '../space';
import { ZOwnListInput, ZSpaceListInput, ZUserAssemblyPage } from '../schemas';

const PAGING = `Paged (pageSize 20 by default, at most 100); page × pageSize at most ${MAX_LIST_WINDOW} (400 beyond). Items as those of GET /assembly/list, isLiked your own.`;

const mine = authedProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/user/me/assemblys',
      tags: ['user'],
      protect: true,
      summary: 'Your assemblies, private ones included (not those in the trash)',
      description: `Newest first. ${PAGING}`,
    },
  })
  .input(ZOwnListInput.prefault({}))
  .output(ZUserAssemblyPage)
  .query(({ input, ctx }) => listOwnAssemblies(ctx.deps, { ...input, userId: ctx.user.id }));

const ofUser = publicProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/user/space/assemblys',
      tags: ['user'],
      protect: false,
      summary: "A user's public assemblies (their space)",
      description: `Only public assemblies that are not in the trash and not published anonymously, newest first; 404 for an unknown userId. ${PAGING}`,
    },
  })
  .input(ZSpaceListInput)
  .output(ZUserAssemblyPage)
  .query(({ input, ctx }) => spaceAssemblies(ctx.deps, { ...input, viewerId: ctx.auth?.user.id }));

const LIKES = `Most recently liked first, across target types: public assemblies that are not in the trash (each as an item of GET /assembly/list, isLiked your own; a private one liked with its password is not listed) and codex entries (ship, item, mod, ...: targetType, targetId, name, type, rarity, season). Each has targetType, targetId and likedTime. Paged (pageSize 20 by default, at most 100); page × pageSize at most ${MAX_LIST_WINDOW} (400 beyond).`;

const myLikes = authedProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/user/likes',
      tags: ['user'],
      protect: true,
      summary: 'What you like: assemblies and codex entries',
      description: LIKES,
    },
  })
  .input(ZOwnListInput.prefault({}))
  .output(ZUserLikesPage)
  .query(({ input, ctx }) => listLikes(ctx.deps, { ...input, userId: ctx.user.id, viewerId: ctx.user.id }));

const likesOf = publicProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/user/space/likes',
      tags: ['user'],
      protect: false,
      summary: 'What a user likes: public assemblies and codex entries',
      description: `${LIKES} 404 for an unknown userId.`,
    },
  })
  .input(ZSpaceListInput)
  .output(ZUserLikesPage)
  .query(({ input, ctx }) => spaceLikes(ctx.deps, { ...input, viewerId: ctx.auth?.user.id }));

export const assembliesRouter = router({ mine, ofUser });
export const likesRouter = router({ mine: myLikes, ofUser: likesOf });
