import { router } from '../../trpc';
import { getAttributes, getItem, list, listTrash } from './procedures/read';
import { edit, like, publish, rate, remove, restore } from './procedures/write';

export const assemblyRouter = router({
  list,
  getItem,
  getAttributes,
  listTrash,
  publish,
  edit,
  delete: remove,
  restore,
  like,
  rate,
});
