/**
 * A user's public space (issue 19: user/space/*): their public assemblies and what they like (public
 * assemblies, codex entries), for anyone; a 404 for an unknown user, as their profile is. The lists are
 * server/domains/assembly/user-lists.ts.
 */
import type { TDepsOf } from '../../deps';
import { listLikes, listSpaceAssemblies, type TUserAssemblyPage } from '../assembly';
import type { TUserLikesPage } from '../assembly/schemas';
import { assertUserExists } from './profile';

type TSpaceInput = { userId: string; page: number; pageSize: number; viewerId?: string };

export async function spaceAssemblies(deps: TDepsOf<'db'>, input: TSpaceInput): Promise<TUserAssemblyPage> {
  await assertUserExists(deps, { id: input.userId });
  return listSpaceAssemblies(deps, input);
}

export async function spaceLikes(deps: TDepsOf<'db'>, input: TSpaceInput): Promise<TUserLikesPage> {
  await assertUserExists(deps, { id: input.userId });
  return listLikes(deps, input);
}
