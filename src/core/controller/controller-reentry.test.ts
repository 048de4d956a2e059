// Listeners, managers and observers that call back into the Controller while they are told of a
// change, and the Controller's own lifecycle (construction, dispose) around them.
import { describe, it } from 'node:test';
import { strict as assert } from 'node:assert';
import { Controller } from './controller.js';
import type { Manager } from './manager.js';
import { FakeClock } from './test-utils/fake-clock.js';
import type { StoreState } from '../store/state.js';
import { flush } from './test-utils/fake-fetch.js';
import { todoEndpoints } from './test-utils/entities.js';
import type { Todo } from './test-utils/entities.js';
import { failOnUnhandledRejection, setup } from './test-utils/harness.js';

failOnUnhandledRejection();

/** Runs `work`, then returns the errors thrown out of it to the event loop (uncaught exceptions). */
async function uncaught(work: () => void | Promise<void>): Promise<unknown[]> {
  const errors: unknown[] = [];
  const others = process.listeners('uncaughtException');
  const record = (error: unknown) => void errors.push(error);
  process.removeAllListeners('uncaughtException');
  process.on('uncaughtException', record);
  try {
    await work();
    await flush();
  } finally {
    process.off('uncaughtException', record);
    for (const listener of others) process.on('uncaughtException', listener);
  }
  return errors;
}

describe('events listeners that call back in', () => {
  it('a listener removed by an earlier listener of the same event is not called with it', () => {
    const { controller } = setup();
    const { get } = todoEndpoints();
    const heard: string[] = [];
    let removeSecond = (): void => {};
    controller.events.subscribe(() => {
      heard.push('first');
      removeSecond();
    });
    removeSecond = controller.events.subscribe(() => heard.push('second'));
    controller.setResponse(get, { id: '1' }, { id: '1' });
    controller.setResponse(get, { id: '2' }, { id: '2' });
    assert.deepEqual(heard, ['first', 'first']);
  });

  it('a listener after one that writes hears every action in the order committed, ending on the current state', () => {
    const { get, getList } = todoEndpoints();
    // Attached first: a created todo invalidates the cached list (the README's logger does this).
    const invalidator: Manager = {
      attach: (controller) =>
        controller.events.subscribe((event) => {
          if (event.type === 'action' && event.action.type === 'response/set') {
            if (event.action.key === 'GET /todos/1') controller.invalidate(getList);
          }
        }),
    };
    // Attached after it: keeps the state of the last action, as tab sync and persistence do.
    const heard: string[] = [];
    let latest: StoreState | undefined;
    const recorder: Manager = {
      attach: (controller) =>
        controller.events.subscribe((event) => {
          if (event.type !== 'action') return;
          heard.push(`${event.action.type} ${'key' in event.action ? event.action.key : ''}`);
          latest = event.state;
        }),
    };
    const { controller } = setup({ managers: [invalidator, recorder] });
    controller.setResponse(getList, [{ id: '1' }]);
    controller.setResponse(get, { id: '1' }, { id: '1', title: 'changed' });
    assert.deepEqual(heard, [
      'response/set GET /todos',
      'response/set GET /todos/1',
      'invalidate ',
    ]);
    assert.equal(latest, controller.getState(), 'the last state heard is the current one');
  });
});

describe('writes that call back in', () => {
  it('a fetch a listener starts while told of setResponse is newer than it: its answer is stored', async () => {
    const { controller, server } = setup();
    const { get } = todoEndpoints();
    let refreshed: Promise<unknown> | undefined;
    // Checks a locally set todo with the server at once.
    controller.addListener(({ action }) => {
      if (action.type === 'response/set' && !refreshed)
        refreshed = controller.fetch(get, { id: '1' });
    });
    controller.setResponse(get, { id: '1' }, { id: '1', title: 'set here' });
    server.take('GET /todos/1').respond(200, { id: '1', title: 'from the server' });
    await refreshed;
    assert.equal((controller.getResponse(get, { id: '1' }).data as Todo).title, 'from the server');
  });
});

describe('observer listeners', () => {
  it('one that throws does not keep the others stale, and its error surfaces', async () => {
    const { controller } = setup();
    const { get } = todoEndpoints();
    controller.setResponse(get, { id: '1' }, { id: '1', title: 'a' });
    const observer = controller.observe(get, { id: '1' });
    const shown: string[] = [];
    const stopFirst = observer.subscribe(() => {
      throw new Error('a render failed');
    });
    const stopSecond = observer.subscribe(() => shown.push((observer.result.data as Todo).title));
    const errors = await uncaught(() => {
      controller.setResponse(get, { id: '1' }, { id: '1', title: 'b' });
    });
    assert.deepEqual(shown, ['b']);
    assert.deepEqual(
      errors.map((error) => (error as Error).message),
      ['a render failed'],
    );
    stopFirst();
    stopSecond();
  });

  it('one that throws when a refetch fails: refetch() still resolves, the others show the error', async () => {
    const { controller, server } = setup({ retry: 0 });
    const { get } = todoEndpoints();
    const observer = controller.observe(get, { id: '1' });
    const statuses: string[] = [];
    const stopFirst = observer.subscribe(() => {
      throw new Error('a render failed');
    });
    const stopSecond = observer.subscribe(() => statuses.push(observer.result.status));
    let refetched: Promise<void> | undefined;
    const errors = await uncaught(async () => {
      server.take('GET /todos/1').fail();
      await flush();
      refetched = observer.refetch();
      server.take('GET /todos/1').fail();
      await refetched;
    });
    assert.equal(statuses.at(-1), 'error');
    assert.ok(errors.length > 0);
    for (const error of errors) assert.equal((error as Error).message, 'a render failed');
    stopFirst();
    stopSecond();
  });

  it('one removed by an earlier listener of the same change is not called with it', () => {
    const { controller } = setup();
    const { get } = todoEndpoints();
    controller.setResponse(get, { id: '1' }, { id: '1', title: 'a' });
    const observer = controller.observe(get, { id: '1' });
    const heard: string[] = [];
    let stopSecond = (): void => {};
    const stopFirst = observer.subscribe(() => {
      heard.push('first');
      stopSecond();
    });
    stopSecond = observer.subscribe(() => heard.push('second'));
    controller.setResponse(get, { id: '1' }, { id: '1', title: 'b' });
    assert.deepEqual(heard, ['first']);
    stopFirst();
  });
});

describe('lifecycle', () => {
  it('a manager whose attach throws: the constructor throws and the managers attached before it are detached', () => {
    const clock = new FakeClock();
    const { get } = todoEndpoints();
    const source = new Controller({ now: clock.now, timers: clock.timers });
    source.setResponse(get, { id: '1' }, { id: '1' });
    const initialState = source.getState();
    source.dispose();
    assert.equal(clock.pending, 0);
    let detached = false;
    const fine: Manager = { attach: () => () => void (detached = true) };
    const broken: Manager = {
      attach() {
        throw new Error('cannot attach');
      },
    };
    assert.throws(
      () =>
        new Controller({
          now: clock.now,
          timers: clock.timers,
          initialState,
          managers: [fine, broken],
        }),
      /cannot attach/,
    );
    assert.ok(detached, 'the manager attached before it');
    assert.equal(clock.pending, 0, 'no garbage collection timer of a controller nobody holds');
  });
});
