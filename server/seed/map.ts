import type { TDb } from '../../db/client';
import { createCollection } from '../domains/map/service';

/** One public and one private collection, so both access rules can be tried on a fresh install. */
export async function seedMaps(db: TDb, authorId: string, now: Date): Promise<void> {
  await createCollection({ db, now: () => now }, {
    authorId,
    collection: {
      title: 'Trade hubs of the Indian Ocean',
      description: 'Where to sell, restock and take contracts.',
      isPublic: true,
      points: [
        { title: 'Sainte-Anne', description: 'Pirate den: smuggling contracts.', latitude: -12.35, longitude: 49.29, tags: ['den', 'contracts'] },
        { title: 'Telok Penjarum', description: 'Pirate den on the Red Isle coast.', latitude: -6.12, longitude: 106.82, tags: ['den'] },
        { title: 'Saint-Denis', description: 'Compagnie Française outpost.', latitude: -20.88, longitude: 55.45, tags: ['outpost', 'shipwright'] },
        { title: 'Mombasa', description: 'Fortified trading town.', latitude: -4.05, longitude: 39.67, tags: ['fort'] },
      ],
    },
  });
  await createCollection({ db, now: () => now }, {
    authorId,
    collection: {
      title: 'My treasure leads',
      isPublic: false,
      points: [{ title: 'Buried chest near the reef', latitude: -11.7, longitude: 43.25, tags: ['treasure'] }],
    },
  });
}
