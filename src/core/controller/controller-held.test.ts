// A read held by its reader (`controller.hold`, what `ResponseObserver` uses): its store key is
// built once per change of args, and after a commit only the readers whose read changed are
// called.
import { describe, it } from 'node:test';
import { strict as assert } from 'node:assert';
import type { EndpointLike } from '../protocol/types.js';
import { failOnUnhandledRejection, setup } from './test-utils/harness.js';
import { flush } from './test-utils/fake-fetch.js';
import { Todo, todoEndpoints } from './test-utils/entities.js';

failOnUnhandledRejection();

/** `endpoint` with its `key` counted. */
function counted<E extends EndpointLike>(endpoint: E): { endpoint: E; builds: () => number } {
  let builds = 0;
  const key = endpoint.key.bind(endpoint);
  const wrapped = Object.assign(Object.create(endpoint) as E, {
    key: (...args: unknown[]) => {
      builds++;
      return key(...args);
    },
  });
  return { endpoint: wrapped, builds: () => builds };
}

describe('a held read', () => {
  it('builds its key once for a first read, once per new args, and never on a commit', async () => {
    const { controller, server } = setup();
    const { endpoint: get, builds } = counted(todoEndpoints().get);
    const observer = controller.observe(get, { id: '1' });
    const stop = observer.subscribe(() => {});
    await flush();
    server.take('GET /todos/1').respond(200, { id: '1', title: 'a' });
    await flush();
    assert.equal(observer.result.data?.title, 'a');
    assert.equal(builds(), 1, 'a first read: observed, subscribed, read, fetched and committed');

    controller.set(Todo, { id: '1', title: 'b' });
    assert.equal(observer.result.data?.title, 'b');
    assert.equal(builds(), 1, 'a commit builds no key');

    observer.setRead(get, { id: '1' });
    assert.equal(builds(), 2, 'a host update with the same args: one build, to compare');
    observer.setRead(get, { id: '2' });
    assert.equal(builds(), 3, 'new args: one build, and the fetch takes the held key');
    stop();
  });

  it('calls only the readers whose read changed', async () => {
    const { controller, server } = setup();
    const { get } = todoEndpoints();
    controller.setResponse(get, { id: '1' }, { id: '1', title: 'a' });
    controller.setResponse(get, { id: '2' }, { id: '2', title: 'b' });
    const one = controller.hold(get, { id: '1' });
    const two = controller.hold(get, { id: '2' });
    // What each holder shows: a change is one against what it read last.
    assert.equal(one.read().data?.title, 'a');
    assert.equal(two.read().data?.title, 'b');
    const told: string[] = [];
    const stops = [
      one.subscribe((read) => told.push(`1:${read?.data?.title}`)),
      two.subscribe((read) => told.push(`2:${read?.data?.title}`)),
    ];

    controller.set(Todo, { id: '1', title: 'a2' });
    assert.deepEqual(told, ['1:a2'], 'the reader of todo 2 is not called');
    controller.set(Todo, { id: '2', title: 'b' });
    assert.deepEqual(told, ['1:a2'], 'a write that changes nothing calls nobody');
    controller.batch(() => {
      controller.set(Todo, { id: '1', title: 'a3' });
      controller.set(Todo, { id: '2', title: 'b2' });
    });
    assert.deepEqual(told, ['1:a2', '1:a3', '2:b2'], 'once per batch, each with its new read');
    assert.equal(one.read(), controller.getResponse(get, { id: '1' }));

    for (const stop of stops) stop();
    controller.set(Todo, { id: '1', title: 'a4' });
    assert.equal(told.length, 3, 'a reader that left is not called');
    assert.equal(controller.stats().listeners, 0);
    await flush();
    assert.equal(server.waiting.length, 0, 'holding alone sends nothing');
  });
});
