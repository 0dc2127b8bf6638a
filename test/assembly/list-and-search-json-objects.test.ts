// The web client's JSON objects in answers (attr, assembly, wheel and warehouse settings): ZJsonObject passes
// a plain object as itself, refuses anything else, and is documented as a record of anything.
import * as assert from 'uvu/assert';
import { z } from 'zod';
import { createSchema } from 'zod-openapi';
import { ZJsonObject } from '../../server/domains/assembly/attributes-schema';
import { suite } from '../support/suite';

const JsonObjects = suite("the web client's JSON objects in answers (attr, assembly, wheel and warehouse settings)");

JsonObjects(
  'a plain object passes as itself; anything else fails the output validation; documented as a record of anything',
  () => {
    const stored = JSON.parse('{"isShowItemName":true,"nested":{"a":[1,2]},"__proto__":{"polluted":true}}') as Record<
      string,
      unknown
    >;
    assert.is(ZJsonObject.parse(stored), stored, 'not copied key by key');
    const bare = Object.create(null) as Record<string, unknown>;
    assert.is(ZJsonObject.parse(bare), bare, 'an object without a prototype is plain too');
    for (const value of [[], null, 'text', 3, new Date(), new Map()]) {
      const result = ZJsonObject.safeParse(value);
      assert.is(result.success, false, `${Object.prototype.toString.call(value)} refused`);
      assert.match(result.error!.issues[0]!.message, /must be an object/);
    }
    const asRecord = z.record(z.string(), z.unknown()).meta({ description: 'settings' });
    assert.equal(createSchema(ZJsonObject.meta({ description: 'settings' })).schema, createSchema(asRecord).schema);
  },
);

JsonObjects.run();
