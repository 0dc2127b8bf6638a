import { z } from 'zod';
import { authedProcedure } from '../../../trpc';
import { passwordGuesses } from '../access';
import { editAssembly, publishAssembly, restoreAssembly, trashAssembly } from '../lifecycle';
import { itemEtag } from '../queries';
import {
  IF_MATCH_DESCRIPTION,
  ZAssembly,
  ZAttributesEditInput,
  ZAssemblyDraft,
  ZPublished,
  ZEditInput,
  ZLikeInput,
  ZLikeResult,
  ZRateInput,
  ZRateResult,
  ZTrashResult,
  ZUuidInput,
} from '../schemas';
import { likeAssembly, rateAssembly } from '../votes';

export const publish = authedProcedure
  .meta({
    openapi: {
      method: 'POST',
      path: '/assembly/publish',
      tags: ['assembly'],
      protect: true,
      summary: 'Publish a loadout (validated against the catalog)',
      description:
        "The contract's form (name, shipId, weapons, armor, furnitures, isPublic, password) or the web client's (name, description, assembly: {visibility, tags, attr, data}, wheel, warehouse): " +
        'assembly.data.shipSlot, weaponSlots with weaponDirections, secondaryWeaponSlots, armorSlot and displaySlots are the loadout; assembly.attr.password the password. Unknown fields are a 400.',
    },
  })
  .input(ZAssemblyDraft)
  .output(ZPublished)
  .mutation(({ input, ctx }) => publishAssembly(ctx.deps, { creatorId: ctx.user.id, draft: input }));

export const edit = authedProcedure
  .meta({
    openapi: {
      method: 'POST',
      path: '/assembly/edit',
      tags: ['assembly'],
      protect: true,
      summary: 'Change your assembly (partial data, re-validated)',
      description:
        "The contract's form {uuid, data} writes only the fields given in data; the web client's form {uuid, name, description, assembly, wheel, warehouse} writes the fields it sends (as on publish). " +
        'Send If-Match with the ETag from GET /assembly/item to refuse the edit (412) if the assembly changed since you read it; ' +
        'the body field ifMatch is the same precondition (native tRPC clients set it). The answer carries the new ETag. ' +
        '412: the assembly changed since that ETag (nothing was written); 404: not found or in the trash; 403: not the creator.',
      requestHeaders: z.object({ 'if-match': z.string().optional().meta({ description: IF_MATCH_DESCRIPTION }) }),
    },
    // The next conditional edit can use the answer's ETag without reading the item again.
    http: { etag: itemEtag },
  })
  .input(ZEditInput)
  .output(ZAssembly)
  .mutation(({ input, ctx }) =>
    editAssembly(ctx.deps, { userId: ctx.user.id, uuid: input.uuid, patch: input.data, ifMatch: input.ifMatch }),
  );

export const editAttributes = authedProcedure
  .meta({
    openapi: {
      method: 'POST',
      path: '/assembly/attr/edit',
      tags: ['assembly'],
      protect: true,
      summary: "Change your assembly's display settings (the web client's settings panel)",
      description:
        'The object GET /assembly/attr answers under data, with the uuid: assembly.visibility, assembly.attr (display settings; attr.password as on edit: absent or empty keeps it, null removes it, a string sets it), ' +
        'wheel.attr and warehouse.attr. Each attr given replaces the stored one; the loadout and the wheel and warehouse data are kept. password (the flag GET /assembly/attr answers) is accepted and ignored. ' +
        'Written as POST /assembly/edit writes (the same checks, If-Match and answer with its ETag). 412: changed since that ETag; 404: not found or in the trash; 403: not the creator.',
      requestHeaders: z.object({ 'if-match': z.string().optional().meta({ description: IF_MATCH_DESCRIPTION }) }),
    },
    http: { etag: itemEtag },
  })
  .input(ZAttributesEditInput)
  .output(ZAssembly)
  .mutation(({ input, ctx }) =>
    editAssembly(ctx.deps, { userId: ctx.user.id, uuid: input.uuid, patch: input.data, ifMatch: input.ifMatch }),
  );

export const remove = authedProcedure
  .meta({
    openapi: {
      method: 'POST',
      path: '/assembly/delete',
      tags: ['assembly'],
      protect: true,
      summary: 'Move your assembly to the trash',
    },
  })
  .input(ZUuidInput)
  .output(ZTrashResult)
  .mutation(({ input, ctx }) => trashAssembly(ctx.deps, { userId: ctx.user.id, uuid: input.uuid }));

export const restore = authedProcedure
  .meta({
    openapi: {
      method: 'POST',
      path: '/assembly/restore',
      tags: ['assembly'],
      protect: true,
      summary: 'Bring your assembly back from the trash',
      description: 'Only your own trash: anything else (not trashed, not yours, unknown) is a 404.',
    },
  })
  .input(ZUuidInput)
  .output(ZAssembly)
  .mutation(({ input, ctx }) => restoreAssembly(ctx.deps, { userId: ctx.user.id, uuid: input.uuid }));

export const like = authedProcedure
  .meta({
    openapi: {
      method: 'POST',
      path: '/assembly/like',
      tags: ['assembly'],
      protect: true,
      summary: 'Like (or unlike) an assembly; one like per user',
      description:
        'Likes switched off by the creator (assembly.attr.isLike: false): like: true is a 403 (data.key assembly.likesDisabled); like: false still takes yours back.',
    },
  })
  .input(ZLikeInput)
  .output(ZLikeResult)
  .mutation(({ input, ctx }) =>
    likeAssembly(ctx.deps, { ...input, userId: ctx.user.id, guesses: passwordGuesses(ctx) }),
  );

export const rate = authedProcedure
  .meta({
    openapi: {
      method: 'POST',
      path: '/assembly/rate',
      tags: ['assembly'],
      protect: true,
      summary: 'Rate an assembly 1 to 5; rating again changes your score',
    },
  })
  .input(ZRateInput)
  .output(ZRateResult)
  .mutation(({ input, ctx }) =>
    rateAssembly(ctx.deps, { ...input, userId: ctx.user.id, guesses: passwordGuesses(ctx) }),
  );
