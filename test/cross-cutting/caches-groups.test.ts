// The shared LRU's key groups (server/infra/cache/read-cache.ts TKeyGroups, stored-answers.ts
// CACHE_KEY_GROUPS): a write drops its assembly's entry with its stored answers and the whole list
// scope; indexed, each drop costs what the group holds instead of a walk of every key. The index must
// drop exactly what a walk drops, whatever was set, evicted or expired before.
import * as assert from 'uvu/assert';
import { CACHE_KEY_GROUPS, scopePrefix } from '../../server/infra/cache';
import { MemoryReadCache } from '../../server/infra/cache/read-cache';
import { suite } from '../support/suite';

const Groups = suite('cache key groups: an index of the LRU by scope and by entity');

const ITEM = scopePrefix('item');
const LIST = scopePrefix('list');
const UUID = '0f9c6f1e-6d1a-4c55-9a4b-3b1f2e8d7c10';

Groups('a key belongs to its scope and, for a stored answer of an entity, to that entity', () => {
  assert.equal(CACHE_KEY_GROUPS.of(`${ITEM}${UUID}`), [ITEM]);
  assert.equal(CACHE_KEY_GROUPS.of(`${ITEM}${UUID}|rest|/api/assembly/item?uuid=x`), [ITEM, `${ITEM}${UUID}|`]);
  assert.equal(CACHE_KEY_GROUPS.of(`${LIST}page=1|rest`), [LIST], 'a list key is no entity: its part is not an id');
  assert.equal(CACHE_KEY_GROUPS.of(`${ITEM}${UUID.toUpperCase()}|rest`), [ITEM], 'upper case is no entity key');
  assert.equal(CACHE_KEY_GROUPS.of('elsewhere:key'), []);
  assert.ok(CACHE_KEY_GROUPS.has(ITEM));
  assert.ok(CACHE_KEY_GROUPS.has(`${ITEM}${UUID}|`));
  assert.not.ok(CACHE_KEY_GROUPS.has(`${ITEM}${UUID}`), 'an entity without its separator is a plain prefix');
  assert.not.ok(CACHE_KEY_GROUPS.has('assembly:'), 'a shorter prefix than a scope walks');
  assert.not.ok(CACHE_KEY_GROUPS.has(`${ITEM}a|b|`));
});

/** A random key: an entity, one of its answers, a list page, or a key of no scope. */
function randomKey(random: () => number): string {
  const entity = `e${Math.floor(random() * 6)}`;
  switch (Math.floor(random() * 5)) {
    case 0:
      return `${ITEM}${entity}`;
    case 1:
      return `${ITEM}${entity}|rest|${Math.floor(random() * 3)}`;
    case 2:
      return `${LIST}page=${Math.floor(random() * 4)}|rest`;
    case 3:
      return `${ITEM}${entity.toUpperCase()}|trpc`;
    default:
      return `other:${entity}`;
  }
}

/** A random prefix to drop: a group (scope, entity answers) or any other. */
function randomPrefix(random: () => number): string {
  const entity = `e${Math.floor(random() * 6)}`;
  return [ITEM, LIST, `${ITEM}${entity}|`, `${ITEM}${entity}`, 'assembly:', `${LIST}page=1`, 'other:'][
    Math.floor(random() * 7)
  ]!;
}

Groups('the indexed cache holds what a walking cache holds, through sets, evictions, expiry and drops', async () => {
  let seed = 7;
  const random = () => {
    seed = (seed * 16807) % 2147483647;
    return seed / 2147483647;
  };
  let now = 0;
  const options = { maxEntries: 12, maxBytes: 400, ttlMs: 50, now: () => now };
  const indexed = new MemoryReadCache({ ...options, groups: CACHE_KEY_GROUPS });
  const walking = new MemoryReadCache(options);
  const keys = new Set<string>();
  for (let step = 0; step < 5000; step++) {
    now += Math.floor(random() * 3);
    const action = random();
    if (action < 0.6) {
      const key = randomKey(random);
      keys.add(key);
      const bytes = Math.floor(random() * 60);
      indexed.set(key, step, { bytes });
      walking.set(key, step, { bytes });
    } else if (action < 0.8) {
      const key = randomKey(random);
      assert.is(indexed.get(key), walking.get(key), `step ${step}: get ${key}`);
    } else if (action < 0.9) {
      const prefix = randomPrefix(random);
      await Promise.all([indexed.invalidatePrefix(prefix), walking.invalidatePrefix(prefix)]);
    } else {
      const key = randomKey(random);
      await Promise.all([indexed.invalidate(key), walking.invalidate(key)]);
    }
    assert.is(indexed.size, walking.size, `step ${step}: size`);
    assert.is(indexed.byteSize, walking.byteSize, `step ${step}: bytes`);
  }
  for (const key of keys) assert.is(indexed.get(key), walking.get(key), key);
  indexed.clear();
  await indexed.invalidatePrefix(ITEM);
  assert.is(indexed.size, 0);
});

Groups('a group drop leaves the rest: an entity with its answers, then a scope', async () => {
  const cache = new MemoryReadCache({ maxEntries: 100, ttlMs: 60_000, groups: CACHE_KEY_GROUPS });
  const other = '11111111-2222-4333-8444-555555555555';
  for (const key of [`${ITEM}${UUID}`, `${ITEM}${UUID}|rest`, `${ITEM}${other}|rest`, `${LIST}page=1|rest`])
    cache.set(key, key);
  await cache.invalidatePrefix(`${ITEM}${UUID}|`);
  assert.is(cache.get(`${ITEM}${UUID}|rest`), undefined);
  assert.is(cache.get(`${ITEM}${UUID}`), `${ITEM}${UUID}`, 'the entity entry itself goes by its key');
  assert.is(cache.get(`${ITEM}${other}|rest`), `${ITEM}${other}|rest`);
  await cache.invalidatePrefix(LIST);
  assert.is(cache.get(`${LIST}page=1|rest`), undefined);
  assert.is(cache.size, 2);
});

Groups.run();
