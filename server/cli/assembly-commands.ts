import { purgeTrash } from '../domains/assembly/lifecycle';
import { formatImportReport, importCatalog } from '../domains/catalog/import';
import { readJsonFile, UsageError, type TCommand } from './command';

export const importCatalogCommand: TCommand = {
  name: 'import-catalog',
  usage: 'import-catalog <ships.json> <items.json>',
  description:
    'Imports hulls and items in the community data format (glow-prow-data). Entries already present are updated in place. All or nothing: an entry that is not a usable hull (ships.json: a size and slots) or item (items.json: a type) is listed, by file, and nothing is written.',
  async run({ positionals, database, print, progress }) {
    const [shipsPath, itemsPath, extra] = positionals;
    if (!shipsPath || !itemsPath || extra !== undefined)
      throw new UsageError('expected exactly two files: <ships.json> <items.json>');
    const files = { ships: await readJsonFile(shipsPath), items: await readJsonFile(itemsPath) };
    const report = await importCatalog(
      { db: (await database()).db, now: () => new Date() },
      { files, names: { ships: shipsPath, items: itemsPath }, onProgress: progress },
    );
    for (const line of formatImportReport(report)) print(line);
  },
};

export const purgeTrashCommand: TCommand = {
  name: 'purge-trash',
  usage: 'purge-trash',
  description:
    'Deletes for good the assemblies that have been in the trash for more than 30 days (the server also does this every hour).',
  async run({ positionals, database, print }) {
    if (positionals.length > 0) throw new UsageError('takes no arguments');
    const { purged } = await purgeTrash({ db: (await database()).db, now: () => new Date() });
    print(`purged ${purged} assembl${purged === 1 ? 'y' : 'ies'} from the trash`);
  },
};
