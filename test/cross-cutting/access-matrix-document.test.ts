/**
 * The access matrix's document, generated from the OpenAPI document: it lists the contract paths with
 * their auth requirement, and every endpoint marked with a token is classified (self-scoped, admin, or
 * owner-scoped with a case) and has its procedure on native tRPC (test/support/surfaces.ts). An endpoint
 * the tables (test/support/access-matrix.ts) do not classify fails the test, so a new endpoint cannot
 * ship without its access rule being stated. The rows themselves run in access-matrix.test.ts and
 * access-matrix-credentials.test.ts.
 */
import * as assert from 'uvu/assert';
import { keyOf, ownedCases, SELF_SCOPED } from '../support/access-matrix';
import { PRIVILEGE_MATRIX_KEYS } from '../support/privilege-matrix';
import { procedureOf } from '../support/surfaces';
import { accessMatrixSuite } from './access-matrix-fixtures';

const Matrix = accessMatrixSuite('access matrix: the OpenAPI document lists and classifies every endpoint');

Matrix('the document lists the contract paths with their auth requirement', ({ operations }) => {
  const keys = new Set(operations.map(keyOf));
  for (const expected of [
    'GET /assembly/list',
    'GET /assembly/item',
    'POST /assembly/publish',
    'POST /assembly/edit',
    'POST /assembly/delete',
    'GET /assembly/attr',
    'GET /assembly/trash',
    'POST /assembly/restore',
    'GET /map/collections',
    'GET /map/collection/{uuid}',
    'POST /map/collection',
    'PUT /map/collection/{uuid}',
    'DELETE /map/collection/{uuid}',
    'GET /subscription/plans',
    'GET /subscription/progress',
    'GET /subscription/hall',
    'GET /subscription/my-status',
    'GET /subscription/my-orders',
    'POST /subscription/orders/create',
    'POST /subscription/orders/{orderId}/cancel',
    'POST /user/signin',
    'POST /user/signup',
    'GET /user/me',
    'GET /user/info',
    'GET /captcha',
  ]) {
    assert.ok(keys.has(expected), `${expected} documented`);
  }
  const secured = new Set(operations.filter((op) => op.secured).map(keyOf));
  for (const token of [
    'GET /user/me',
    'POST /assembly/publish',
    'GET /map/collections',
    'POST /subscription/orders/create',
  ]) {
    assert.ok(secured.has(token), `${token} marked as needing a token`);
  }
  for (const open of ['GET /assembly/list', 'GET /user/info', 'GET /captcha', 'POST /user/signin']) {
    assert.not.ok(secured.has(open), `${open} marked public`);
  }
});

Matrix(
  'every token endpoint is classified: self-scoped, admin, or owner-scoped with a case; every endpoint has its procedure',
  ({ operations, fixtures }) => {
    const owned = ownedCases(fixtures);
    const unclassified = operations
      .filter((op) => op.secured && !op.path.startsWith('/admin/'))
      .map(keyOf)
      // Privileges and the smugglers' reports (issue 35): their rows are in access-matrix-privileges.test.ts.
      .filter((key) => !SELF_SCOPED.has(key) && !owned[key] && !PRIVILEGE_MATRIX_KEYS.has(key));
    assert.equal(
      unclassified,
      [],
      'state the access rule of these endpoints in test/support/access-matrix.ts (SELF_SCOPED or ownedCases)',
    );
    for (const operation of operations) procedureOf(operation);
  },
);

Matrix.run();
