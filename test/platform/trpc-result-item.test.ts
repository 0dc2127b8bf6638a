// A native tRPC result item (server/trpc-http/wire.ts) is built without tRPC's transformTRPCResponse
// (issue 38): the same bytes as the text tRPC's own function gives, for plain answers, answers whose
// text the ETag already made, and values superjson annotates.
import { suite } from '../support/suite';
import * as assert from 'uvu/assert';
import { transformTRPCResponse } from '@trpc/server/unstable-core-do-not-import';
import { jsonOfAnswer } from '../../server/etag';
import { appRouter } from '../../server/router';
import { resultItem } from '../../server/trpc-http/wire';

const Wire = suite('tRPC result items');

Wire('the same bytes as JSON.stringify(transformTRPCResponse(...)), every kind of answer', () => {
  const config = appRouter._def._config;
  const shared = { name: 'shared' };
  const madeOnce = { uuid: 'a', views: 3, tags: ['x'] };
  jsonOfAnswer(madeOnce);
  const values: unknown[] = [
    { data: [{ uuid: 'a', createdTime: '2028-02-29T23:59:59.007Z', rating: { average: null } }], truncated: false },
    madeOnce,
    [1, 'two', null, { nested: [[]] }],
    'text',
    0,
    null,
    { at: new Date(0) },
    { missing: undefined },
    { n: Number.NaN },
    { n: -0 },
    { twice: [shared, shared] },
    { set: new Set([1]) },
    undefined,
  ];
  for (const data of values) {
    assert.is(
      resultItem(config, data),
      JSON.stringify(transformTRPCResponse(config, { result: { data } })),
      String(JSON.stringify(data)),
    );
  }
});

Wire.run();
