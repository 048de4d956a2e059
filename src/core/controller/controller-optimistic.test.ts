import { describe, it } from 'node:test';
import { strict as assert } from 'node:assert';
import { ExpiryStatus } from '../protocol/types.js';
import { fakeEndpoint } from './test-utils/fake-endpoint.js';
import { Todo, todoEndpoints } from './test-utils/entities.js';
import { failOnUnhandledRejection, setup, withoutErrors } from './test-utils/harness.js';

failOnUnhandledRejection();

function seeded() {
  const harness = setup();
  const endpoints = todoEndpoints({ optimistic: true });
  harness.controller.setResponse(endpoints.getList, {}, [
    { id: '1', title: 'one', completed: false },
    { id: '2', title: 'two', completed: false },
  ]);
  harness.controller.setResponse(endpoints.get, { id: '1' }, { id: '1', title: 'one' });
  return { ...harness, ...endpoints };
}

/**
 * The same members (===) in the same order. The list array itself may be a new (equal) array:
 * the MemoCache keeps one entry per (input, schema), so the optimistic read replaced it.
 */
function assertSameList(actual: unknown, expected: unknown) {
  const a = actual as Todo[];
  const b = expected as Todo[];
  assert.equal(a.length, b.length);
  a.forEach((todo, i) => assert.equal(todo, b[i]));
}

const read = (data: unknown) => {
  const todo = data as Todo;
  return { title: todo.title, completed: todo.completed };
};

describe('optimistic updates', () => {
  it('are visible at once, kept out of the committed state, replaced by the server answer', async () => {
    const { controller, server, get, update } = seeded();
    const committed = controller.getState();
    const promise = controller.fetch(update, { id: '1' }, { title: 'typed' });
    assert.deepEqual(read(controller.getResponse(get, { id: '1' }).data), {
      title: 'typed',
      completed: false,
    });
    assert.equal(controller.getState().entities, committed.entities, 'not committed');
    assert.deepEqual(
      controller.getState().optimistic.map((entry) => entry.key),
      ['PATCH /todos/1'],
    );
    server.take().respond(200, { id: '1', title: 'Typed (saved)', completed: false });
    assert.equal(((await promise) as Todo).title, 'Typed (saved)');
    assert.equal(read(controller.getResponse(get, { id: '1' }).data).title, 'Typed (saved)');
    assert.deepEqual(controller.getState().optimistic, []);
  });

  it('while pending, other writes leave the optimistic read the same object (nothing renders again)', async () => {
    const { controller, server, get, getList, update } = seeded();
    const promise = controller.fetch(update, { id: '1' }, { title: 'typed' });
    const shown = controller.getResponse(get, { id: '1' }).data;
    const list = controller.getResponse(getList, {}).data as Todo[];
    assert.equal(read(shown).title, 'typed');
    for (let i = 3; i < 6; i++) {
      controller.setResponse(get, { id: String(i) }, { id: String(i), title: `other ${i}` });
      assert.equal(controller.getResponse(get, { id: '1' }).data, shown, `after write ${i}`);
      assert.equal(controller.getResponse(getList, {}).data, list, `the list, after write ${i}`);
    }
    // A write to the entity itself does show (fetched after the update started, it wins).
    controller.setResponse(get, { id: '1' }, { id: '1', title: 'one', completed: true });
    const changed = controller.getResponse(get, { id: '1' }).data;
    assert.notEqual(changed, shown);
    assert.deepEqual(read(changed), { title: 'one', completed: true });
    server.take().respond(200, { id: '1', title: 'typed', completed: true });
    await promise;
  });

  it('while pending, a write never changes a state getState() handed out (gc of an entity table the replay did not write)', async () => {
    const { controller, server, get, update } = seeded();
    controller.setResponse(get, { id: '3' }, { id: '3', author: { id: 'a0', name: 'A' } });
    controller.setResponse(get, { id: '4' }, { id: '4', author: { id: 'a1', name: 'B' } });
    // Pending, and writing only Todo: the visible Author table is the committed one.
    const promise = controller.fetch(update, { id: '2' }, { title: 'typed' });
    const handedOut = controller.getState();
    const authors = { ...handedOut.entities.Author };
    // The first collection copies the entities record (it then belongs to the store and the
    // next write changes it in place); the second copies the Author table handed out.
    controller.dispatch({ type: 'gc', keys: [], entities: [['Todo', '1']] });
    controller.dispatch({ type: 'gc', keys: [], entities: [['Author', 'a0']] });
    assert.deepEqual(handedOut.entities.Author, authors);
    // Readers still see the collection.
    assert.equal((controller.getResponse(get, { id: '3' }).data as Todo).author, undefined);
    server.take().respond(200, { id: '2', title: 'typed' });
    await promise;
  });

  it('roll back exactly on failure: the same objects are shown as before', async () => {
    const { controller, server, get, getList, update } = seeded();
    const before = controller.getState();
    const todoBefore = controller.getResponse(get, { id: '1' }).data;
    const listBefore = controller.getResponse(getList, {}).data;
    const promise = controller.fetch(update, { id: '1' }, { completed: true });
    assert.equal(read(controller.getResponse(get, { id: '1' }).data).completed, true);
    assert.notEqual(controller.getResponse(getList, {}).data, listBefore);
    server.take().respond(500);
    await assert.rejects(promise);
    assert.deepEqual(withoutErrors(controller.getState()), withoutErrors(before));
    assert.equal(controller.getResponse(get, { id: '1' }).data, todoBefore);
    assertSameList(controller.getResponse(getList, {}).data, listBefore);
  });

  it('with several in flight, the first failing and the second succeeding, end at the server truth', async () => {
    const { controller, server, get, update } = seeded();
    const first = controller.fetch(update, { id: '1' }, { title: 'first' });
    const second = controller.fetch(update, { id: '1' }, { completed: true });
    assert.deepEqual(read(controller.getResponse(get, { id: '1' }).data), {
      title: 'first',
      completed: true,
    });
    server.take().respond(409, { message: 'conflict' });
    await assert.rejects(first);
    // The second is rebased on the committed state: only its own change remains.
    assert.deepEqual(read(controller.getResponse(get, { id: '1' }).data), {
      title: 'one',
      completed: true,
    });
    const truth = { id: '1', title: 'one', completed: true };
    server.take().respond(200, truth);
    await second;

    // The same as a store that only ever saw the successful answer.
    const { controller: plain } = seeded();
    plain.setResponse(update, { id: '1' }, { completed: true }, truth);
    assert.deepEqual(controller.getState().entities, plain.getState().entities);
    assert.deepEqual(controller.getState().optimistic, []);
  });

  it('with several in flight, the first succeeding and the second failing, keep only the first', async () => {
    const { controller, server, get, update } = seeded();
    const first = controller.fetch(update, { id: '1' }, { title: 'first' });
    const second = controller.fetch(update, { id: '1' }, { completed: true });
    server.take().respond(200, { id: '1', title: 'first', completed: false });
    await first;
    assert.deepEqual(read(controller.getResponse(get, { id: '1' }).data), {
      title: 'first',
      completed: true,
    });
    server.take().fail();
    await assert.rejects(second);
    assert.deepEqual(read(controller.getResponse(get, { id: '1' }).data), {
      title: 'first',
      completed: false,
    });
  });

  it('apply nothing when getOptimisticResponse throws snapshot.abort; the request still runs', async () => {
    const { controller, server, update } = seeded();
    const before = controller.getState();
    let notified = 0;
    controller.addListener(() => notified++);
    const promise = controller.fetch(update, { id: 'missing' }, { title: 'x' });
    assert.equal(notified, 1, 'the queued entry is one change');
    assert.equal(controller.getResponse(todoEndpoints().get, { id: 'missing' }).data, undefined);
    assert.equal(controller.getState().entities, before.entities);
    server.take('PATCH /todos/missing').respond(200, { id: 'missing', title: 'x' });
    await promise;
  });

  it('snapshot reads the store as the update is applied', async () => {
    const { controller, server, get } = seeded();
    const seen: unknown[] = [];
    const toggle = fakeEndpoint({
      path: '/todos/:id/toggle',
      method: 'POST',
      schema: Todo,
      getOptimisticResponse: (snapshot, params: { id: string }) => {
        const todo = snapshot.get(Todo, params);
        seen.push(snapshot.getResponse(get, params).expiryStatus, snapshot.fetchedAt);
        if (!todo) throw snapshot.abort;
        return { id: todo.id, completed: !todo.completed };
      },
    });
    const promise = controller.fetch(toggle, { id: '1' });
    assert.equal(seen[0], ExpiryStatus.Valid);
    assert.equal(typeof seen[1], 'number');
    assert.equal(read(controller.getResponse(get, { id: '1' }).data).completed, true);
    server.take().respond(200, { id: '1', completed: true });
    await promise;
  });
});

describe('optimistic delete', () => {
  it('marks the entity INVALID by the pk of the call args, drops it from lists, restores it on failure', async () => {
    const { controller, server, get, getList, remove } = seeded();
    const listBefore = controller.getResponse(getList, {}).data;
    const promise = controller.fetch(remove, { id: '1' });
    assert.equal(controller.getResponse(get, { id: '1' }).expiryStatus, ExpiryStatus.Invalid);
    assert.deepEqual(
      (controller.getResponse(getList, {}).data as Todo[]).map((todo) => todo.id),
      ['2'],
    );
    server.take().respond(500);
    await assert.rejects(promise);
    assert.equal(controller.getResponse(get, { id: '1' }).expiryStatus, ExpiryStatus.Valid);
    assertSameList(controller.getResponse(getList, {}).data, listBefore);
  });

  it('commits INVALID on success and resolves with an entity built from the args', async () => {
    const { controller, server, get, getList, remove } = seeded();
    const promise = controller.fetch(remove, { id: '1' });
    server.take().respond(200, { id: '1' });
    const removed = await promise;
    assert.ok(removed instanceof Todo);
    assert.equal((removed as Todo).id, '1');
    assert.equal(controller.getResponse(get, { id: '1' }).expiryStatus, ExpiryStatus.Invalid);
    assert.deepEqual(
      (controller.getResponse(getList, {}).data as Todo[]).map((todo) => todo.id),
      ['2'],
    );
    assert.deepEqual(controller.getState().optimistic, []);
  });
});
