// A keyword search with a shipType (issue 16): the class filters inside FTS5, a rare class among many
// matches, hull ids that share a word, every sort.
import * as assert from 'uvu/assert';
import { HULK } from '../support/community-sample';
import { catalogSuite, list, names, publish } from './fixtures';

const Search = catalogSuite('keyword search with a shipType: the class filters inside FTS5', async (app, admin) => {
  // Two hulls whose ids share a word: a filter by one must not find the other's assemblies.
  const hull = (size: string, archetype: string) => ({
    size,
    archetype,
    hitpoints: 1000,
    slots: { leftSideWeapon: [1, 2] },
  });
  const imported = await app.rest('POST', '/api/admin/catalog/import', {
    token: admin.token,
    body: { ships: { sloop: hull('large', 'raider'), sloop_2: hull('large', 'ram') }, items: {} },
  });
  assert.is(imported.status, 200, imported.text);
  return { owner: await app.signUp() };
});

Search('a rare class among many matches, hull ids with punctuation, every sort', async ({ app, owner }) => {
  await publish(app, owner.token, { name: 'Gull sloop old', shipId: 'sloop', weapons: [], tags: ['gull'] });
  await publish(app, owner.token, { name: 'Gull sloop two', shipId: 'sloop_2', weapons: [], tags: ['gull'] });
  for (let i = 0; i < 30; i++) await publish(app, owner.token, { ...HULK, name: `Gull hulk ${i}`, tags: ['gull'] });
  const found = async (query: string) => names((await list(app, `keyword=gull&${query}`)).data);
  assert.equal(await found('shipType=raider'), ['Gull sloop old'], 'sloop only, not sloop_2');
  assert.equal(await found('shipType=ram'), ['Gull sloop two']);
  assert.equal(await found('shipType=large'), ['Gull sloop two', 'Gull sloop old']);
  assert.equal(await found('shipType=LARGE&sort=rating'), ['Gull sloop two', 'Gull sloop old']);
  assert.equal((await list(app, 'keyword=gull&shipType=tank')).pagination.total, 30);
  assert.equal(await found('shipType=medium'), [], 'a class with hulls but no assembly');
  assert.equal(await found('shipType=galleon'), [], 'no hull of that class at all');
  // A word that is the start of a hull term ('h' + hex) matches names and tags only.
  assert.equal(await found('shipType=raider&sort=hottest'), ['Gull sloop old']);
  assert.equal(names((await list(app, 'keyword=h6')).data), [], 'hulk is h68756c6b');
  assert.equal(names((await list(app, 'keyword=h736c6f6f70')).data), [], 'sloop');
  assert.is(
    (await list(app, 'keyword=h')).pagination.total,
    30,
    'while h finds the names that start with it (Gull hulk)',
  );
});

Search.run();
