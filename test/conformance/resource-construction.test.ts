// Translated from reactive/data-client packages/rest/src/__tests__/resource-construction.test.ts:
// the three forms of extend() (name, batch, function) and construction checks. `resource()` is
// our createResource; hooks become the Controller.
import { describe, it } from 'node:test';
import { strict as assert } from 'node:assert';
import { Entity, createResource } from '../../src/core/index.js';
import type { EndpointLike } from '../../src/core/index.js';
import { flush } from '../../src/core/controller/test-utils/fake-fetch.js';
import type { FakeServer } from '../../src/core/controller/test-utils/fake-fetch.js';
import { failOnUnhandledRejection, setup } from '../../src/core/controller/test-utils/harness.js';

failOnUnhandledRejection();

class User extends Entity {
  id: number | undefined = undefined;
  username = '';
  email = '';
  isAdmin = false;
  group = '';
  pk() {
    return this.id?.toString();
  }
  static override key = 'User';
}

const path = 'http\\://test.com/groups/:group/users/:id';
const current = { id: 5, username: 'bob', email: 'bob@bob.com', isAdmin: false };

async function answer(server: FakeServer, route: string, body: unknown, status = 200) {
  await flush();
  const request = server.take(route);
  request.respond(status, typeof body === 'function' ? body(request.body) : body);
}

/** What every extended resource below must do: read `current`, list and push into the list. */
type Loose = EndpointLike<any[], any>;
async function exercise(UserResource: { current: Loose; getList: Loose & { push: Loose } }) {
  const { controller, server } = setup();
  const me = controller.fetch(UserResource.current);
  await answer(server, 'GET /current', current);
  assert.equal(((await me) as User).email, 'bob@bob.com');

  const list = controller.fetch(UserResource.getList, { blob: '5', isAdmin: false });
  await answer(server, 'GET 5?isAdmin=false', [current]);
  assert.equal(((await list) as User[]).length, 1);

  const pushed = controller.fetch(
    UserResource.getList.push,
    { blob: '5', isAdmin: false },
    { username: 'newbob' },
  );
  await answer(
    server,
    'POST 5?isAdmin=false',
    (body: object) => ({ id: 10, username: 'bob', email: 'newbob@bob.com', ...body }),
    201,
  );
  const user = (await pushed) as User;
  assert.equal(user.username, 'newbob');
  assert.ok(user instanceof User);
  assert.equal(user.isAdmin, false);
  const shown = controller.getResponse(UserResource.getList, { blob: '5', isAdmin: false })
    .data as User[];
  assert.equal(shown.length, 2);
  assert.equal(shown[1]!.username, 'newbob');
}

describe('rest resource-construction.test.ts', () => {
  describe('resource()', () => {
    it('can override endpoint options (extend by name)', async () => {
      const UserResource = createResource({ path, schema: User })
        .extend('getList', {
          path: ':blob',
          searchParams: {} as { isAdmin?: boolean },
          paginationField: 'cursor',
          process(users: unknown) {
            return Array.isArray(users) ? users.slice(0, 7) : users;
          },
        })
        .extend('justget', {})
        .extend('current', { path: '/current', searchParams: {} as { isAdmin?: boolean } })
        .extend('toggleAdmin', { path: '/toggle/:id', method: 'POST', body: undefined });
      assert.equal(UserResource.toggleAdmin.sideEffect, true);
      assert.equal(UserResource.toggleAdmin.url({ id: '5' }), '/toggle/5');
      assert.equal(
        UserResource.justget.url({ group: 'blob', id: '5' }),
        'http://test.com/groups/blob/users/5',
      );
      assert.equal(typeof UserResource.getList.getPage, 'function');
      await exercise(UserResource as never);
    });

    it('can override endpoint options (batch)', async () => {
      const UserResource = createResource({ path, schema: User, paginationField: 'cursor' })
        .extend({
          getList: { path: ':blob', searchParams: {} as { isAdmin?: boolean } },
          delete: {
            getOptimisticResponse(_snap: unknown, params: unknown) {
              return params;
            },
          },
        })
        .extend('justget', {})
        .extend('current', { path: '/current', searchParams: {} as { isAdmin?: boolean } })
        .extend('toggleAdmin', { path: '/toggle/:id', method: 'POST', body: undefined });
      assert.equal(UserResource.toggleAdmin.sideEffect, true);
      await exercise(UserResource as never);
    });

    it('can override with no generics', () => {
      const UserResource = createResource({ path, schema: User, paginationField: 'cursor' }).extend(
        { getList: { dataExpiryLength: 10 * 60 * 1000 } },
      );
      assert.equal(UserResource.getList.sideEffect, false);
      assert.equal(UserResource.getList.dataExpiryLength, 600_000);
    });

    it('can override resource endpoints (function form)', async () => {
      const UserResource = createResource({ path, schema: User, paginationField: 'cursor' }).extend(
        (base) => ({
          getList: base.getList.extend({
            path: ':blob',
            searchParams: {} as { isAdmin?: boolean },
            process(users: unknown) {
              return Array.isArray(users) ? users.slice(0, 7) : users;
            },
          }),
          justget: base.get,
          current: base.get.extend({ path: '/current', searchParams: {} as { isAdmin?: boolean } }),
          toggleAdmin: base.get.extend({ path: '/toggle/:id', method: 'POST', body: undefined }),
        }),
      );
      assert.equal(UserResource.toggleAdmin.sideEffect, true);
      assert.equal(UserResource.justget, UserResource.get);
      await exercise(UserResource as never);
    });

    it('should not allow paths without at least one argument', () => {
      class Todo extends Entity {
        id = '';
        pk() {
          return this.id;
        }
        static override key = 'Todo';
      }
      assert.throws(() => createResource({ path: '/todos/', schema: Todo }), /\/todos\//);
    });
  });
});
