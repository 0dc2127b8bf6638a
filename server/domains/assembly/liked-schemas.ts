// What a user's list of likes holds (issue 34: user/likes, user/space/likes, across target types): an
// assembly as an item of GET /assembly/list, a codex entry by its name and the few fields a list shows.
import { z } from 'zod';
import { zPage, ZTimestamp } from '../../schemas';
import { CODEX_KINDS } from '../codex/schemas';
import { ZAssemblySummary } from './view-schemas';

const likedTime = ZTimestamp.meta({ description: 'When the user liked it' });
const targetId = z.string().meta({ description: "The assembly's uuid, or the codex entry's id" });

export const ZLikedAssembly = ZAssemblySummary.extend({
  targetType: z
    .literal('assembly')
    .meta({ description: 'assembly: the rest is the item as GET /assembly/list has it' }),
  targetId,
  likedTime,
});

export const ZLikedCodexEntry = z.object({
  targetType: z.enum(CODEX_KINDS).meta({ description: 'The codex kind (ship, item, mod, ...)' }),
  targetId,
  name: z.string().meta({ description: 'A name made from the id (the data set has none of its own)' }),
  type: z.string().nullable().meta({ description: 'Its type or category in the data set; null when it has none' }),
  rarity: z.string().nullable().meta({ description: 'Its rarity; null when the data set gives none' }),
  season: z.string().nullable().meta({ description: 'The season key it came with; null when the data set says none' }),
  likedTime,
});

export const ZUserLike = z
  .union([ZLikedAssembly, ZLikedCodexEntry])
  .meta({ description: 'An assembly (targetType assembly) or a codex entry the user likes' });
export type TUserLike = z.infer<typeof ZUserLike>;

export const ZUserLikesPage = zPage(ZUserLike);
export type TUserLikesPage = z.infer<typeof ZUserLikesPage>;
