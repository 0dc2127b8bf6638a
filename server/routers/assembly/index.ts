import { router } from '../../trpc';
import { getAttributes_, getItem, list, trashList } from './read';
import { edit, like, publish, rate, remove, restore } from './write';

export const assemblyRouter = router({
  list,
  getItem,
  getAttributes: getAttributes_,
  listTrash: trashList,
  publish,
  edit,
  delete: remove,
  restore,
  like,
  rate,
});
