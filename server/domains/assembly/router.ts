import { router } from '../../trpc';
import { fork } from './procedures/forks';
import { likesRouter } from './procedures/likes';
import { getAttributes, getItem, list, listTrash } from './procedures/read';
import { edit, editAttributes, like, publish, rate, remove, restore } from './procedures/write';

export const assemblyRouter = router({
  list,
  getItem,
  getAttributes,
  listTrash,
  publish,
  edit,
  editAttributes,
  delete: remove,
  restore,
  like,
  rate,
  fork,
  likes: likesRouter,
});
