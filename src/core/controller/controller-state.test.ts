import { describe, it } from 'node:test';
import { strict as assert } from 'node:assert';
import { Controller } from './controller.js';
import { ExpiryStatus } from '../protocol/types.js';
import { FakeClock } from './test-utils/fake-clock.js';
import { Todo, todoEndpoints } from './test-utils/entities.js';
import { failOnUnhandledRejection, setup } from './test-utils/harness.js';

failOnUnhandledRejection();

describe('state as plain data', () => {
  it('getState → JSON → new Controller restores reads, expiry and errors', async () => {
    const { controller, server, clock } = setup();
    const { get, getList } = todoEndpoints();
    controller.setResponse(getList, {}, [
      { id: '1', title: 'a', author: { id: 'u', name: 'U' } },
      { id: '2', title: 'b' },
    ]);
    controller.setResponse(get, { id: '1' }, { id: '1', title: 'a' });
    const failing = controller.fetch(get, { id: '9' });
    server.take().respond(404);
    await assert.rejects(failing);
    const json = JSON.stringify(controller.getState());

    const restoredClock = new FakeClock(clock.now());
    const restored = new Controller({
      initialState: JSON.parse(json),
      now: restoredClock.now,
      timers: restoredClock.timers,
    });
    assert.deepEqual(restored.getState(), JSON.parse(json));
    const list = restored.getResponse(getList, {});
    assert.equal(list.expiryStatus, ExpiryStatus.Valid);
    assert.equal(list.expiresAt, controller.getResponse(getList, {}).expiresAt);
    const todos = list.data as Todo[];
    assert.ok(todos[0] instanceof Todo);
    assert.deepEqual(
      todos.map((todo) => [todo.id, todo.title, todo.author?.name]),
      [
        ['1', 'a', 'U'],
        ['2', 'b', undefined],
      ],
    );
    assert.equal(restored.getResponse(get, { id: '1' }).data, todos[0], 'one entity, one object');
    assert.ok(restored.getError(get, { id: '9' }), 'the error is restored while it lasts');
    restoredClock.advance(60_001);
    assert.equal(restored.getResponse(getList, {}).expiryStatus, ExpiryStatus.Stale);
  });

  it('drops pending optimistic entries of the old controller', () => {
    const { controller } = setup();
    const { get, update } = todoEndpoints({ optimistic: true });
    controller.setResponse(get, { id: '1' }, { id: '1', title: 'a' });
    void controller.fetch(update, { id: '1' }, { title: 'b' }).catch(() => {});
    const state = controller.getState();
    assert.equal(state.optimistic.length, 1);
    const restored = new Controller({ initialState: JSON.parse(JSON.stringify(state)) });
    assert.deepEqual(restored.getState().optimistic, []);
    assert.equal((restored.getResponse(get, { id: '1' }).data as Todo).title, 'a');
  });

  it('accepts a partial or empty initial state', () => {
    const controller = new Controller({ initialState: {} });
    assert.deepEqual(controller.getState().endpoints, {});
    assert.deepEqual(controller.getState().optimistic, []);
  });
});
