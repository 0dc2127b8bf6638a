import type { TDb } from '../../db/client';
import { createPoint } from '../domains/map/points';
import { createCollection } from '../domains/map/service';

/**
 * One public and one private collection (shared with `captain`, who may read it), and one public
 * orphan point, so every access rule can be tried on a fresh install.
 */
export async function seedMaps(db: TDb, authorId: string, now: Date): Promise<void> {
  const deps = { db, now: () => now };
  await createCollection(deps, {
    authorId,
    collection: {
      title: 'Trade hubs of the Indian Ocean',
      description: 'Where to sell, restock and take contracts.',
      isPublic: true,
      points: [
        {
          title: 'Sainte-Anne',
          description: 'Pirate den: smuggling contracts.',
          latitude: -12.35,
          longitude: 49.29,
          tags: ['den', 'contracts'],
        },
        {
          title: 'Telok Penjarum',
          description: 'Pirate den on the Red Isle coast.',
          latitude: -6.12,
          longitude: 106.82,
          tags: ['den'],
        },
        {
          title: 'Saint-Denis',
          description: 'Compagnie Française outpost.',
          latitude: -20.88,
          longitude: 55.45,
          tags: ['outpost', 'shipwright'],
        },
        { title: 'Mombasa', description: 'Fortified trading town.', latitude: -4.05, longitude: 39.67, tags: ['fort'] },
      ],
    },
  });
  await createCollection(deps, {
    authorId,
    collection: {
      title: 'My treasure leads',
      isPublic: false,
      sharedUsers: ['captain'],
      points: [{ title: 'Buried chest near the reef', latitude: -11.7, longitude: 43.25, tags: ['treasure'] }],
    },
  });
  await createPoint(deps, {
    userId: authorId,
    point: {
      title: 'Wreck off Sainte-Anne',
      description: 'Not in any collection yet.',
      latitude: -12.4,
      longitude: 49.35,
      address: 'Sainte-Anne reef',
      tags: ['wreck'],
      isPublic: true,
    },
  });
}
