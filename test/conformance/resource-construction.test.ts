// Translated from reactive/data-client packages/rest/src/__tests__/resource-construction.test.ts:
// the three forms of extend() (name, batch, function) and construction checks. `resource()` is
// our createResource; hooks become the Controller.
import { describe, it } from 'node:test';
import { strict as assert } from 'node:assert';
import {
  Entity,
  ExpiryStatus,
  RestEndpoint,
  createResource,
  schema,
} from '../../src/core/index.js';
import type { EndpointLike } from '../../src/core/index.js';
import { flush } from '../../src/core/controller/test-utils/fake-fetch.js';
import { fakeFetch, json } from '../../src/core/rest/test-utils/fake-fetch.js';
import type { FakeServer } from '../../src/core/controller/test-utils/fake-fetch.js';
import { failOnUnhandledRejection, setup } from '../../src/core/controller/test-utils/harness.js';
import { differs, plain } from './support.js';

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

class MyEndpoint extends RestEndpoint {
  additional = 5;
  override getRequestInit(body: unknown) {
    if (body !== null && typeof body === 'object') {
      return super.getRequestInit({ ...body, email: 'always@always.com' });
    }
    return super.getRequestInit(body);
  }
}
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

    const UserResource = createResource({
      path,
      schema: User,
      Endpoint: MyEndpoint,
      body: {} as Partial<User>,
    });
    const userPayload = { id: 5, username: 'ntucker', email: 'bob@vila.com', isAdmin: true };

    it('UserResource.get should work', async () => {
      const { controller, server } = setup();
      const promise = controller.fetch(UserResource.get, { group: 'five', id: '5' });
      await answer(server, 'GET http://test.com/groups/five/users/5', userPayload);
      const user = await promise;
      assert.ok(user instanceof User);
      assert.deepEqual(plain(user), { ...(plain(User.fromJS()) as object), ...userPayload });
    });

    it('UserResource.getList should work', async () => {
      const { controller, server } = setup();
      const promise = controller.fetch(UserResource.getList, { group: 'five' });
      await answer(server, 'GET http://test.com/groups/five/users', [userPayload]);
      const [first] = (await promise) as User[];
      assert.ok(first instanceof User);
      assert.equal(first.isAdmin, true);
    });

    it('UserResource.update should work', async () => {
      const { controller, server } = setup();
      controller.setResponse(UserResource.get, { group: 'five', id: '5' }, userPayload);
      const promise = controller.fetch(
        UserResource.update,
        { group: 'five', id: '5' },
        { username: 'never' },
      );
      await answer(server, 'PUT http://test.com/groups/five/users/5', (body: object) => ({
        ...userPayload,
        ...body,
      }));
      await promise;
      const user = controller.getResponse(UserResource.get, { group: 'five', id: '5' })
        .data as User;
      assert.equal(user.username, 'never');
    });

    it('UserResource.getList.push should work', async () => {
      const { controller, server } = setup();
      const promise = controller.fetch(
        UserResource.getList.push,
        { group: 'five' },
        { username: 'createduser', email: 'haha@gmail.com' },
      );
      await answer(server, 'POST http://test.com/groups/five/users', (body: object) => ({
        id: 5,
        ...body,
      }));
      await promise;
      const user = controller.getResponse(UserResource.get, { group: 'five', id: '5' })
        .data as User;
      assert.equal(user.username, 'createduser');
      // our custom endpoint ensures this
      assert.equal(user.email, 'always@always.com');
    });

    /** The stored lists the move and remove tests start from (the reference's fixtures). */
    const groupFive = [
      { id: 1, username: 'user1', email: 'user1@example.com', group: 'five' },
      { id: 2, username: 'user2', email: 'user2@example.com', group: 'five' },
    ];
    const groupTen = [{ id: 3, username: 'user3', email: 'user3@example.com', group: 'ten' }];
    const usernames = (list: unknown) => (list as User[]).map((user) => user.username);

    class Task extends Entity {
      id: number | undefined = undefined;
      title = '';
      status = 'backlog';
      pk() {
        return this.id?.toString();
      }
      static override key = 'Task';
    }
    const backlog = [
      { id: 1, title: 'Task 1', status: 'backlog' },
      { id: 3, title: 'My Task', status: 'backlog' },
    ];
    const inProgress = [{ id: 2, title: 'Task 2', status: 'in-progress' }];
    const titles = (list: unknown) => (list as Task[]).map((task) => task.title);

    // The reference's remove answers with the user in group 'newgroup' and expects it gone from
    // { group: 'five' }, the list the call names. Ours matches lists by the entity's values, so
    // that user is taken out of the lists of 'newgroup' and stays in 'five'.
    it(
      'UserResource.getList.remove should work',
      differs(
        "docs/differences.md: Collection.remove matches lists by the removed entity's values (the call's URL params filling in fields it lacks); the reference matches by the call's arguments alone",
      ),
      () => {},
    );

    // There is no getList.move: the resource's own move is the same PATCH to the member's path
    // (docs/differences.md).
    it('UserResource.getList.move should work', async () => {
      const { controller, server } = setup();
      controller.setResponse(UserResource.getList, { group: 'five' }, groupFive);
      controller.setResponse(UserResource.getList, { group: 'ten' }, groupTen);
      // PATCH /groups/five/users/2 moves user 2 from 'five' to 'ten'.
      const promise = controller.fetch(
        UserResource.move,
        { group: 'five', id: '2' },
        { id: 2, group: 'ten' },
      );
      await answer(server, 'PATCH http://test.com/groups/five/users/2', (body: object) => ({
        id: 2,
        username: 'user2',
        email: 'user2@example.com',
        group: 'ten',
        ...body,
      }));
      assert.equal((await promise).id, 2);
      assert.deepEqual(
        usernames(controller.getResponse(UserResource.getList, { group: 'five' }).data),
        ['user1'],
      );
      assert.deepEqual(
        usernames(controller.getResponse(UserResource.getList, { group: 'ten' }).data).sort(),
        ['user2', 'user3'],
      );
      const user2 = controller.getResponse(UserResource.get, { group: 'five', id: '2' })
        .data as User;
      assert.equal(user2.group, 'ten');
    });

    it('getList.move should work when entity lacks path param field', async () => {
      // Tasks have a status but no team: team is only a path param, and both key the lists.
      const TeamTaskResource = createResource({
        path: 'http\\://test.com/teams/:team/tasks/:id',
        searchParams: {} as { status: string },
        schema: Task,
      });
      const { controller, server } = setup();
      const list = (status: string) =>
        controller.getResponse(TeamTaskResource.getList, { team: 'alpha', status }).data;
      controller.setResponse(
        TeamTaskResource.getList,
        { team: 'alpha', status: 'backlog' },
        backlog,
      );
      controller.setResponse(
        TeamTaskResource.getList,
        { team: 'alpha', status: 'in-progress' },
        inProgress,
      );
      assert.equal(titles(list('backlog')).length, 2);
      assert.equal(titles(list('in-progress')).length, 1);
      const promise = controller.fetch(
        TeamTaskResource.move,
        { team: 'alpha', id: '3' },
        { id: 3, status: 'in-progress' },
      );
      await answer(server, 'PATCH http://test.com/teams/alpha/tasks/3', (body: object) => ({
        id: 3,
        title: 'My Task',
        status: 'in-progress',
        ...body,
      }));
      assert.equal((await promise).id, 3);
      assert.deepEqual(titles(list('backlog')), ['Task 1']);
      assert.deepEqual(titles(list('in-progress')).sort(), ['My Task', 'Task 2']);
      const task3 = controller.getResponse(TeamTaskResource.get, { team: 'alpha', id: '3' })
        .data as Task;
      assert.equal(task3.status, 'in-progress');
    });

    for (const form of [false, true]) {
      it(`getList.move should work with ${form ? 'FormData body' : 'searchParams-based collections'}`, async () => {
        const TaskResource = createResource({
          path: 'http\\://test.com/tasks/:id',
          searchParams: {} as { status: string },
          schema: Task,
        });
        // The server echoes what it is sent, a form's fields too.
        const fake = fakeFetch(({ body }) =>
          json({
            id: 3,
            title: 'My Task',
            status: 'in-progress',
            ...(body instanceof FormData
              ? { status: body.get('status') }
              : JSON.parse(String(body))),
          }),
        );
        const { controller } = setup({ fetch: fake.fetch });
        const list = (status: string) =>
          controller.getResponse(TaskResource.getList, { status }).data;
        controller.setResponse(TaskResource.getList, { status: 'backlog' }, backlog);
        controller.setResponse(TaskResource.getList, { status: 'in-progress' }, inProgress);
        assert.equal(titles(list('backlog')).length, 2);
        assert.equal(titles(list('in-progress')).length, 1);
        let body: FormData | { id: number; status: string } = { id: 3, status: 'in-progress' };
        if (form) {
          body = new FormData();
          body.append('id', '3');
          body.append('status', 'in-progress');
        }
        // PATCH /tasks/3 moves task 3 from 'backlog' to 'in-progress'.
        const response = await controller.fetch(TaskResource.move, { id: '3' }, body as never);
        assert.equal(response.id, 3);
        const sent = fake.only();
        assert.equal(`${sent.method} ${sent.url}`, 'PATCH http://test.com/tasks/3');
        // A form is sent as it is.
        assert.equal(sent.body instanceof FormData, form);
        assert.deepEqual(titles(list('backlog')), ['Task 1']);
        assert.deepEqual(titles(list('in-progress')).sort(), ['My Task', 'Task 2']);
        const task3 = controller.getResponse(TaskResource.get, { id: '3' }).data as Task;
        assert.equal(task3.status, 'in-progress');
      });
    }

    it('getList.move should work optimistically with path-based collections', async () => {
      const OptUserResource = createResource({ path, schema: User, optimistic: true });
      assert.equal(typeof OptUserResource.move.getOptimisticResponse, 'function');
      const { controller, server } = setup();
      const list = (group: string) =>
        usernames(controller.getResponse(OptUserResource.getList, { group }).data);
      const user2 = () =>
        controller.getResponse(OptUserResource.get, { group: 'five', id: '2' }).data as User;
      controller.setResponse(OptUserResource.getList, { group: 'five' }, groupFive);
      controller.setResponse(OptUserResource.getList, { group: 'ten' }, groupTen);
      assert.equal(list('five').length, 2);
      assert.equal(list('ten').length, 1);
      const promise = controller.fetch(
        OptUserResource.move,
        { group: 'five', id: '2' },
        { id: 2, group: 'ten' },
      );
      // optimistic: shown at once, before the server answers
      assert.deepEqual(list('five'), ['user1']);
      assert.deepEqual(list('ten').sort(), ['user2', 'user3']);
      assert.equal(user2().group, 'ten');
      await answer(server, 'PATCH http://test.com/groups/five/users/2', {
        id: 2,
        username: 'user2',
        email: 'user2@example.com',
        group: 'ten',
      });
      await promise;
      // and still so after the answer
      assert.deepEqual(list('five'), ['user1']);
      assert.deepEqual(list('ten').sort(), ['user2', 'user3']);
      assert.equal(user2().group, 'ten');
    });

    it('getList.move should work optimistically with searchParams-based collections', async () => {
      const TaskResource = createResource({
        path: 'http\\://test.com/tasks/:id',
        searchParams: {} as { status: string },
        schema: Task,
        optimistic: true,
      });
      assert.equal(typeof TaskResource.move.getOptimisticResponse, 'function');
      const { controller, server } = setup();
      const list = (status: string) =>
        titles(controller.getResponse(TaskResource.getList, { status }).data);
      const task3 = () => controller.getResponse(TaskResource.get, { id: '3' }).data as Task;
      controller.setResponse(TaskResource.getList, { status: 'backlog' }, backlog);
      controller.setResponse(TaskResource.getList, { status: 'in-progress' }, inProgress);
      assert.equal(list('backlog').length, 2);
      assert.equal(list('in-progress').length, 1);
      const promise = controller.fetch(
        TaskResource.move,
        { id: '3' },
        { id: 3, status: 'in-progress' },
      );
      // optimistic: shown at once, before the server answers
      assert.deepEqual(list('backlog'), ['Task 1']);
      assert.deepEqual(list('in-progress').sort(), ['My Task', 'Task 2']);
      assert.equal(task3().status, 'in-progress');
      await answer(server, 'PATCH http://test.com/tasks/3', {
        id: 3,
        title: 'My Task',
        status: 'in-progress',
      });
      await promise;
      // and still so after the answer
      assert.deepEqual(list('backlog'), ['Task 1']);
      assert.deepEqual(list('in-progress').sort(), ['My Task', 'Task 2']);
      assert.equal(task3().status, 'in-progress');
    });

    for (const [label, reply] of [
      [
        '{ id: 5 } as JSON',
        (server: FakeServer) =>
          answer(server, 'DELETE http://test.com/groups/five/users/5', { id: 5 }),
      ],
      [
        'an empty text body',
        async (server: FakeServer) => {
          await flush();
          server.take('DELETE http://test.com/groups/five/users/5').respondText(200, '', 'text');
        },
      ],
    ] as const) {
      it(`UserResource.delete should work with ${label}`, async () => {
        const { controller, server } = setup();
        controller.setResponse(UserResource.get, { group: 'five', id: '5' }, userPayload);
        const promise = controller.fetch(UserResource.delete, { group: 'five', id: '5' });
        await reply(server);
        // From the response, or (empty body) from the URL params: the same pk.
        assert.equal(String(((await promise) as User).id), '5');
        // The reader would suspend and fetch again.
        const read = controller.getResponse(UserResource.get, { group: 'five', id: '5' });
        assert.equal(read.data, undefined);
        assert.equal(read.expiryStatus, ExpiryStatus.Invalid);
      });
    }

    it('should allow complete overrides', async () => {
      class User2 extends Entity {
        id: number | undefined = undefined;
        username2 = '';
        pk() {
          return this.id?.toString();
        }
        static override key = 'User2';
      }
      const extended = {
        ...UserResource,
        get: UserResource.get.extend({
          path: 'http\\://test.com/groups/:magic/users/:id',
          schema: User2,
        }),
      };
      const { controller, server } = setup();
      const promise = controller.fetch(extended.get, { magic: 'vi', id: 5 });
      await answer(server, 'GET http://test.com/groups/vi/users/5', {
        id: 5,
        title: 'hi',
        username2: 'bob',
      });
      const user = (await promise) as User2;
      assert.equal(user.username2, 'bob');
      assert.equal((user as unknown as { username?: string }).username, undefined);
    });

    describe('unions', () => {
      const feedPayload = { id: '5', title: 'my first feed', type: 'link', url: 'https://true.io' };
      class Feed extends Entity {
        id = '';
        title = '';
        type = 'post';
        pk() {
          return this.id;
        }
      }
      class FeedLink extends Feed {
        url = '';
        override type = 'link';
        static override key = 'FeedLink';
      }
      class FeedPost extends Feed {
        content = '';
        static override key = 'FeedPost';
      }
      const FeedUnion = new schema.Union({ post: FeedPost, link: FeedLink }, 'type');
      const FeedResource = createResource({
        path: 'http\\://test.com/feed/:id',
        schema: FeedUnion,
        Endpoint: MyEndpoint,
        body: {} as Record<string, unknown>,
      });

      it('should work with detail', async () => {
        const { controller, server } = setup();
        const promise = controller.fetch(FeedResource.get, { id: '5' });
        await answer(server, 'GET http://test.com/feed/5', feedPayload);
        const feed = (await promise) as FeedLink;
        assert.ok(feed instanceof FeedLink);
        assert.equal(feed.url, feedPayload.url);
      });

      it('should work with list [no args]', async () => {
        const { controller, server } = setup();
        const promise = controller.fetch(FeedResource.getList);
        await answer(server, 'GET http://test.com/feed', [feedPayload]);
        assert.ok(((await promise) as unknown[])[0] instanceof FeedLink);
      });

      it('should work with getList.push [no args]', async () => {
        const { controller, server } = setup();
        const promise = controller.fetch(FeedResource.getList.push, feedPayload);
        await answer(server, 'POST http://test.com/feed', (body: object) => ({ id: 5, ...body }));
        await promise;
        const feed = controller.getResponse(FeedResource.get, {
          id: '5',
          type: 'link',
        } as { id: string }).data as FeedLink;
        assert.ok(feed instanceof FeedLink);
        assert.equal(feed.url, feedPayload.url);
      });

      it('delete endpoint should wrap Union schema with Invalidate', () => {
        const deleteSchema = FeedResource.delete.schema as unknown;
        assert.ok(deleteSchema instanceof schema.Invalidate);
        assert.equal((deleteSchema as schema.Invalidate<any>).entity, FeedUnion);
      });

      it('delete should invalidate Union entity from cache', async () => {
        const { controller, server } = setup();
        const first = controller.fetch(FeedResource.get, { id: '5' });
        await answer(server, 'GET http://test.com/feed/5', feedPayload);
        assert.equal(((await first) as FeedLink).title, feedPayload.title);
        const removed = controller.fetch(FeedResource.delete, { id: '5' });
        await answer(server, 'DELETE http://test.com/feed/5', feedPayload);
        await removed;
        // The reader would suspend and fetch again.
        const read = controller.getResponse(FeedResource.get, { id: '5' });
        assert.equal(read.data, undefined);
        assert.equal(read.expiryStatus, ExpiryStatus.Invalid);
        const again = controller.fetch(FeedResource.get, { id: '5' });
        await answer(server, 'GET http://test.com/feed/5', { ...feedPayload, title: 'refetched' });
        const feed = (await again) as FeedLink;
        assert.ok(feed instanceof FeedLink);
        assert.equal(feed.title, 'refetched');
      });
    });

    it('UserResource.getList.push.extends() should work', () => {
      const createUser = UserResource.getList.push.extend({
        body: {} as { username: string },
        schema: User,
        sideEffect: true,
      } as never);
      assert.equal(createUser.url({ group: 'hi' }), 'http://test.com/groups/hi/users');
    });

    it('UserResource.getList.push.extends() should work with zero urlParams', () => {
      const Users = createResource({
        path: 'http\\://test.com/users/:id',
        schema: User,
        Endpoint: MyEndpoint,
      });
      const createUser = Users.getList.push.extend({
        body: {} as { username: string },
        schema: User,
        sideEffect: true,
      } as never);
      assert.equal(createUser.url({}), 'http://test.com/users');
    });

    it('getList.push should use custom lifecycle methods of getList', async () => {
      const Users = createResource({ path: '/users/:id', schema: User, optimistic: true }).extend(
        (Base) => ({
          getList: Base.getList.extend({
            getRequestInit(this: typeof Base.getList, body: unknown) {
              if (body && typeof body === 'object') {
                return Base.getList.getRequestInit.call(this, { id: 99, isAdmin: true, ...body });
              }
              return Base.getList.getRequestInit.call(this, body);
            },
          } as never),
        }),
      );
      const getList = Users.getList as unknown as Loose & { push: Loose };
      const { controller, server } = setup();
      controller.setResponse(getList, []);
      const pushed = controller.fetch(getList.push, { username: 'bob' });
      await answer(server, 'POST /users', (body: object) => ({ ...body, id: 5 }), 201);
      await pushed;
      const list = controller.getResponse(getList).data as User[];
      assert.equal(list.length, 1);
      // this is set in our override
      assert.equal(list[0]!.isAdmin, true);
    });

    it(
      'searchParams are used in Queries based on getList.schema',
      differs(
        'docs/differences.md: Public API: no Query schema (the schema namespace is Collection, Invalidate, Array, Object, Values, Union)',
      ),
      () => {},
    );

    it(
      'should warn when mis-capitalizing options (endpoint)',
      differs(
        'docs/differences.md: no runtime warning for a misspelled createResource option (`endpoint`, `collection`): tsc rejects it',
      ),
      () => {},
    );
    it(
      'should warn when mis-capitalizing options (collection)',
      differs(
        'docs/differences.md: no runtime warning for a misspelled createResource option (`endpoint`, `collection`): tsc rejects it',
      ),
      () => {},
    );
  });
});
