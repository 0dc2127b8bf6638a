// The locked 200 answer of a private assembly read without its password (issue 18): no guess spent and no
// view counted, while a wrong password is still a 403 and the guess limits still apply.
import * as assert from 'uvu/assert';
import { HULK } from '../support/community-sample';
import { ownerAndOtherSuite, publish } from './fixtures';

const Guesses = ownerAndOtherSuite('assembly locked answer and the guess limits', {
  RATE_LIMIT_ASSEMBLY_PASSWORD_CLIENT: 3,
});

Guesses(
  'locked answer: no guess spent, no view counted; wrong passwords are 403s until the guess limit (429)',
  async ({ app, owner, other }) => {
    const locked = await publish(app, owner.token, { ...HULK, isPublic: false, password: 'open-sesame' });
    const url = `/api/assembly/item?uuid=${locked.uuid}`;
    for (let i = 0; i < 15; i++)
      assert.is(
        (await app.rest('GET', url, { token: other.token })).body.data.isPassword,
        true,
        'asking without the password spends no guess',
      );
    const own = (await app.rest('GET', url, { token: owner.token })).body.data;
    assert.equal([own.isVisibility, own.isOwner, own.views], [true, true, 0], 'no view counted for a locked answer');
    // RATE_LIMIT_ASSEMBLY_PASSWORD_CLIENT (3 here) wrong guesses per client and assembly, then a 429.
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++)
      statuses.push((await app.rest('GET', `${url}&password=guess-${i}`, { token: other.token })).status);
    assert.equal(statuses, [403, 403, 403, 429]);
    assert.is(
      (await app.rest('GET', `/api/assembly/attr?uuid=${locked.uuid}&password=guess-x`)).status,
      429,
      'the attr route shares the budget',
    );
    assert.equal(
      (await app.rest('GET', url)).body.data,
      { uuid: locked.uuid, isVisibility: false, isPassword: true, isOwner: false },
      'still answered locked',
    );
  },
);

Guesses.run();
