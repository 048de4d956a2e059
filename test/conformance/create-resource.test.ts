// Translated from reactive/data-client packages/rest/src/__tests__/createResource.test.ts (the
// rest-hooks era that matches rest 0.9). Hooks become the Controller, nock a fake server;
// `create` is our `getList.push` (spec: createResource members).
import { describe, it } from 'node:test';
import { strict as assert } from 'node:assert';
import {
  Entity,
  ExpiryStatus,
  RestEndpoint,
  createResource,
  schema,
} from '../../src/core/index.js';
import { flush } from '../../src/core/controller/test-utils/fake-fetch.js';
import type { FakeServer } from '../../src/core/controller/test-utils/fake-fetch.js';
import { failOnUnhandledRejection, setup } from '../../src/core/controller/test-utils/harness.js';
import { plain } from './support.js';

failOnUnhandledRejection();

class User extends Entity {
  id: number | undefined = undefined;
  username = '';
  email = '';
  isAdmin = false;
  pk() {
    return this.id?.toString();
  }
  static override key = 'User';
}

class MyEndpoint extends RestEndpoint {
  additional = 5;
  override parseResponse(response: Response): Promise<unknown> {
    return super.parseResponse(response);
  }
  override getRequestInit(body: unknown) {
    if (body !== null && typeof body === 'object') {
      return super.getRequestInit({ ...body, email: 'always@always.com' });
    }
    return super.getRequestInit(body);
  }
}

const UserResource = createResource({
  path: 'http\\://test.com/groups/:group/users/:id',
  schema: User,
  Endpoint: MyEndpoint,
  body: {} as Partial<User>,
});

const userPayload = { id: 5, username: 'ntucker', email: 'bob@vila.com', isAdmin: true };

/** Waits for the request, answers it (with a function of the sent body, or a value). */
async function answer(server: FakeServer, route: string, body: unknown): Promise<void> {
  await flush();
  const request = server.take(route);
  request.respond(200, typeof body === 'function' ? body(request.body) : body);
}

describe('rest createResource.test.ts', () => {
  describe('createResource()', () => {
    it('UserResource.get should work', async () => {
      const { controller, server } = setup();
      const promise = controller.fetch(UserResource.get, { group: 'five', id: '5' });
      await answer(server, 'GET http://test.com/groups/five/users/5', userPayload);
      const user = await promise;
      assert.ok(user instanceof User);
      assert.deepEqual(plain(user), userPayload);
      assert.equal(controller.getResponse(UserResource.get, { group: 'five', id: '5' }).data, user);
    });

    it('UserResource.getList should work', async () => {
      const { controller, server } = setup();
      const promise = controller.fetch(UserResource.getList, { group: 'five' });
      await answer(server, 'GET http://test.com/groups/five/users', [userPayload]);
      const users = (await promise) as User[];
      assert.ok(users[0] instanceof User);
      assert.deepEqual(plain(users), [userPayload]);
    });

    it('UserResource.update should work', async () => {
      const { controller, server } = setup();
      controller.setResponse(UserResource.get, { group: 'five', id: '5' }, userPayload);
      const read = () =>
        controller.getResponse(UserResource.get, { group: 'five', id: '5' }).data as User;
      assert.equal(read().username, userPayload.username);
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
      assert.equal(read().username, 'never');
      // Our custom endpoint's getRequestInit ran.
      assert.equal(read().email, 'always@always.com');
    });

    it('UserResource.create should work', async () => {
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
      assert.ok(user);
      assert.equal(user.username, 'createduser');
      // our custom endpoint ensures this
      assert.equal(user.email, 'always@always.com');
    });

    it('UserResource.delete should work', async () => {
      const { controller, server } = setup();
      controller.setResponse(UserResource.get, { group: 'five', id: '5' }, userPayload);
      const promise = controller.fetch(UserResource.delete, { group: 'five', id: '5' });
      await answer(server, 'DELETE http://test.com/groups/five/users/5', { id: userPayload.id });
      await promise;
      // The reader would suspend and fetch again (there: its resolver fixture answers "not found").
      const read = controller.getResponse(UserResource.get, { group: 'five', id: '5' });
      assert.equal(read.data, undefined);
      assert.equal(read.expiryStatus, ExpiryStatus.Invalid);
    });

    it('should allow complete overrides', async () => {
      class User2 extends Entity {
        id: number | undefined = undefined;
        username2 = '';
        pk() {
          return this.id?.toString();
        }
        static override key = 'User2';
      }
      const UserResourceExtend = {
        ...UserResource,
        get: UserResource.get.extend({
          path: 'http\\://test.com/groups/:magic/users/:id',
          schema: User2,
        }),
      };
      const { controller, server } = setup();
      const promise = controller.fetch(UserResourceExtend.get, { magic: 'vi', id: 5 });
      await answer(server, 'GET http://test.com/groups/vi/users/5', {
        id: 5,
        title: 'hi',
        username2: 'bob',
      });
      const user = (await promise) as User2;
      assert.ok(user instanceof User2);
      assert.equal(user.username2, 'bob');
      assert.equal((user as unknown as { username?: string }).username, undefined);
    });

    describe('unions', () => {
      const feedPayload = {
        id: '5',
        title: 'my first feed',
        type: 'link' as const,
        url: 'https://true.io',
      };
      class Feed extends Entity {
        id = '';
        title = '';
        type: 'link' | 'post' = 'post';
        pk() {
          return this.id;
        }
        static override key = 'Feed';
      }
      class FeedLink extends Feed {
        url = '';
        override type = 'link' as const;
        static override key = 'FeedLink';
      }
      class FeedPost extends Feed {
        content = '';
        override type = 'post' as const;
        static override key = 'FeedPost';
      }
      const FeedResource = createResource({
        path: 'http\\://test.com/feed/:id',
        schema: new schema.Union({ post: FeedPost, link: FeedLink }, 'type'),
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
        assert.equal((feed as unknown as { content?: string }).content, undefined);
      });

      it('should work with list [no args]', async () => {
        const { controller, server } = setup();
        const promise = controller.fetch(FeedResource.getList);
        await answer(server, 'GET http://test.com/feed', [feedPayload]);
        const [feed] = (await promise) as FeedLink[];
        assert.ok(feed instanceof FeedLink);
        assert.equal(feed.url, feedPayload.url);
      });

      it('should work with create [no args]', async () => {
        const { controller, server } = setup();
        const promise = controller.fetch(FeedResource.getList.push, feedPayload);
        await answer(server, 'POST http://test.com/feed', (body: object) => ({ id: 5, ...body }));
        await promise;
        const feed = controller.getResponse(FeedResource.get, { id: '5', type: 'link' } as {
          id: string;
        }).data as FeedLink;
        assert.ok(feed instanceof FeedLink);
        assert.equal(feed.url, feedPayload.url);
      });
    });
  });
});
