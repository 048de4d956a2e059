// Races a busy realtime page runs into, each played in a chosen order against a fake server: the
// end state must not depend on which answer or pushed update lands first.
import { describe, it } from 'node:test';
import { strict as assert } from 'node:assert';
import { Entity } from '../schema/entity.js';
import { createResource } from '../rest/create-resource.js';
import { ExpiryStatus } from '../protocol/types.js';
import { failOnUnhandledRejection, setup } from './test-utils/harness.js';
import { flush } from './test-utils/fake-fetch.js';

failOnUnhandledRejection();

class Todo extends Entity {
  id = '';
  userId = 0;
  title = '';
  completed = false;
  pk() {
    return this.id;
  }
  static override key = 'Todo';
}

const TodoResource = createResource({
  path: '/todos/:id',
  schema: Todo,
  searchParams: {} as { userId?: number; completed?: boolean },
});
const Optimistic = TodoResource.extend({ delete: { optimistic: true } });

const todo = (id: string, fields: Partial<Todo> = {}) => ({
  id,
  userId: 1,
  title: `todo ${id}`,
  completed: false,
  ...fields,
});

function ids(controller: ReturnType<typeof setup>['controller'], args: object): string[] {
  const { data } = controller.getResponse(TodoResource.getList, args as never);
  return ((data ?? []) as Todo[]).map((t) => t.id);
}

describe('getList.remove after a pushed update', () => {
  /** User 1's open list, user 1's whole list, and user 2's list, as loaded. */
  function lists() {
    const harness = setup();
    const { controller } = harness;
    controller.setResponse(TodoResource.getList, { userId: 1, completed: false }, [
      todo('1'),
      todo('2'),
    ]);
    controller.setResponse(TodoResource.getList, { userId: 1 }, [todo('1'), todo('2')]);
    controller.setResponse(TodoResource.getList, { userId: 2 }, [todo('4', { userId: 2 })]);
    const all = () => ({
      open: ids(controller, { userId: 1, completed: false }),
      mine: ids(controller, { userId: 1 }),
      theirs: ids(controller, { userId: 2 }),
    });
    return { ...harness, all };
  }
  const END = { open: ['1'], mine: ['1'], theirs: ['4'] };

  for (const pushFirst of [false, true]) {
    it(`takes it out of every loaded list of user 1 (push ${pushFirst ? 'first' : 'after'})`, async () => {
      const { controller, server, all } = lists();
      // Another client completed todo 2; the change is pushed here.
      const pushed = () => controller.set(Todo, todo('2', { completed: true }));
      if (pushFirst) pushed();
      const removing = controller.fetch(TodoResource.getList.remove, { userId: 1 }, { id: '2' });
      await flush();
      server.take('PATCH /todos?userId=1').respond(200, todo('2', { completed: true }));
      await removing;
      if (!pushFirst) pushed();
      assert.deepEqual(all(), END);
    });
  }
});

describe('an optimistic delete', () => {
  it('does not make a reader of the entity fetch it again while the delete is pending', async () => {
    const { controller, server } = setup();
    controller.setResponse(TodoResource.get, { id: '5' }, todo('5'));
    const reader = controller.observe(TodoResource.get, { id: '5' });
    const stop = reader.subscribe(() => {});
    const deleting = controller.fetch(Optimistic.delete, { id: '5' });
    await flush();
    assert.deepEqual(
      server.waiting.map(({ method, url }) => `${method} ${url}`),
      ['DELETE /todos/5'],
    );
    server.take('DELETE /todos/5').respond(204);
    await deleting;
    stop();
  });

  it('is not undone by a read sent before its answer that the server answered first', async () => {
    const { controller, server } = setup();
    controller.setResponse(TodoResource.get, { id: '5' }, todo('5'));
    const deleting = controller.fetch(Optimistic.delete, { id: '5' });
    await flush();
    // A read sent after the DELETE; the server handles it first (200), then the DELETE (204).
    const reading = controller.refetch(TodoResource.get, { id: '5' });
    await flush();
    server.take('GET /todos/5').respond(200, todo('5', { completed: true }));
    await reading;
    server.take('DELETE /todos/5').respond(204);
    await deleting;
    const read = controller.getResponse(TodoResource.get, { id: '5' });
    assert.equal(read.expiryStatus, ExpiryStatus.Invalid);
    assert.equal(read.data, undefined);
  });

  it('stays deleted when a read sent before its answer lands after it', async () => {
    const { controller, server } = setup();
    controller.setResponse(TodoResource.get, { id: '5' }, todo('5'));
    const deleting = controller.fetch(TodoResource.delete, { id: '5' });
    await flush();
    const reading = controller.refetch(TodoResource.get, { id: '5' });
    await flush();
    server.take('DELETE /todos/5').respond(204);
    await deleting;
    server.take('GET /todos/5').respond(200, todo('5'));
    await reading.catch(() => {});
    assert.equal(
      controller.getResponse(TodoResource.get, { id: '5' }).expiryStatus,
      ExpiryStatus.Invalid,
    );
  });

  it('leaves a read sent after its answer free to bring the entity back (created again)', async () => {
    const { controller, server } = setup();
    controller.setResponse(TodoResource.get, { id: '5' }, todo('5'));
    const deleting = controller.fetch(TodoResource.delete, { id: '5' });
    await flush();
    server.take('DELETE /todos/5').respond(204);
    await deleting;
    const reading = controller.fetch(TodoResource.get, { id: '5' });
    await flush();
    server.take('GET /todos/5').respond(200, todo('5', { title: 'again' }));
    assert.equal((await reading).title, 'again');
    assert.equal(
      controller.getResponse(TodoResource.get, { id: '5' }).expiryStatus,
      ExpiryStatus.Valid,
    );
  });
});

describe('an entity known only from invalidated responses', () => {
  it('is not fresh for a read served from it', async () => {
    const { controller, server } = setup();
    controller.setResponse(TodoResource.getList, {}, [todo('1')]);
    assert.equal(
      controller.getResponse(TodoResource.get, { id: '1' }).expiryStatus,
      ExpiryStatus.Valid,
      'served from the list while the list is fresh',
    );
    // A push stream's gap: what is not on screen is invalidated.
    controller.invalidateAll(() => true);
    const read = controller.getResponse(TodoResource.get, { id: '1' });
    assert.equal(read.expiryStatus, ExpiryStatus.Stale, 'shown, but fetched again');
    assert.equal(read.data?.id, '1');
    const fetching = controller.fetchIfStale(TodoResource.get, { id: '1' });
    assert.ok(fetching, 'a request is sent');
    await flush();
    server.take('GET /todos/1').respond(200, todo('1', { title: 'changed during the gap' }));
    await fetching;
    assert.equal(
      controller.getResponse(TodoResource.get, { id: '1' }).data?.title,
      'changed during the gap',
    );
  });
});

describe('a partial pushed update during a read', () => {
  it("overrules only the fields it carries, not the read's other fields", async () => {
    const { controller, server } = setup();
    controller.setResponse(TodoResource.get, { id: '5' }, todo('5', { title: 'old' }));
    const reading = controller.refetch(TodoResource.get, { id: '5' });
    await flush();
    // Pushed while the read is in flight: the title only, as the guide allows.
    controller.set(Todo, { id: '5', title: 'pushed' });
    server.take('GET /todos/5').respond(200, todo('5', { title: 'old', completed: true }));
    await reading;
    const { data } = controller.getResponse(TodoResource.get, { id: '5' });
    assert.equal(data?.title, 'pushed', 'the push is newer than the read');
    assert.equal(data?.completed, true, 'the read is newer than what the push did not carry');
  });

  it('still loses every field to a full write newer than the read', async () => {
    const { controller, server } = setup();
    controller.setResponse(TodoResource.get, { id: '5' }, todo('5', { title: 'old' }));
    const reading = controller.refetch(TodoResource.get, { id: '5' });
    await flush();
    controller.set(Todo, { id: '5', title: 'pushed' });
    controller.set(Todo, todo('5', { title: 'full', completed: false }));
    server.take('GET /todos/5').respond(200, todo('5', { title: 'old', completed: true }));
    await reading;
    const { data } = controller.getResponse(TodoResource.get, { id: '5' });
    assert.deepEqual([data?.title, data?.completed], ['full', false]);
  });
});

describe('a list read for the first time', () => {
  it('gets an entity created after its request was sent, when its answer lacks it', async () => {
    const { controller, server } = setup();
    const listing = controller.fetch(TodoResource.getList, { userId: 1 });
    await flush();
    const creating = controller.fetch(TodoResource.getList.push, { userId: 1 }, { title: 'new' });
    await flush();
    server.take('POST /todos?userId=1').respond(201, todo('9', { title: 'new' }));
    await creating;
    // The server answered the list before it handled the POST.
    server.take('GET /todos?userId=1').respond(200, [todo('1')]);
    await listing;
    assert.deepEqual(ids(controller, { userId: 1 }), ['1', '9']);
  });

  it('keeps, when fetched again, an entity created while that request was in flight', async () => {
    const { controller, server } = setup();
    controller.setResponse(TodoResource.getList, { userId: 1 }, [todo('1')]);
    const refetching = controller.refetch(TodoResource.getList, { userId: 1 });
    await flush();
    const creating = controller.fetch(TodoResource.getList.push, { userId: 1 }, { title: 'new' });
    await flush();
    server.take('POST /todos?userId=1').respond(201, todo('9', { title: 'new' }));
    await creating;
    assert.deepEqual(ids(controller, { userId: 1 }), ['1', '9']);
    server.take('GET /todos?userId=1').respond(200, [todo('1')]);
    await refetching;
    assert.deepEqual(ids(controller, { userId: 1 }), ['1', '9']);
  });

  it('does not get one created before its request was sent, nor one of another list', async () => {
    const { controller, server } = setup();
    const before = controller.fetch(TodoResource.getList.push, { userId: 1 }, { title: 'a' });
    await flush();
    server.take('POST /todos?userId=1').respond(201, todo('8'));
    await before;
    const listing = controller.fetch(TodoResource.getList, { userId: 1 });
    await flush();
    const other = controller.fetch(TodoResource.getList.push, { userId: 2 }, { title: 'b' });
    await flush();
    server.take('POST /todos?userId=2').respond(201, todo('9', { userId: 2 }));
    await other;
    // The server's word on the list, asked after the first create: it no longer holds todo 8.
    server.take('GET /todos?userId=1').respond(200, [todo('1')]);
    await listing;
    assert.deepEqual(ids(controller, { userId: 1 }), ['1']);
  });
});
