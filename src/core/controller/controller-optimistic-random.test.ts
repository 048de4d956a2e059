// Optimistic updates under random traffic, with the real Controller, queue and replay: what
// readers see must always be the committed state with the pending updates replayed afresh.
import { describe, it } from 'node:test';
import { strict as assert } from 'node:assert';
import { controllerInternals } from '../protocol/internals.js';
import { todoEndpoints } from './test-utils/entities.js';
import { flush } from './test-utils/fake-fetch.js';
import { failOnUnhandledRejection, setup } from './test-utils/harness.js';
import { random } from './test-utils/random.js';

failOnUnhandledRejection();

const api = todoEndpoints({ optimistic: true });

describe('optimistic updates under random traffic', () => {
  it('the visible state is always the committed one with the pending updates replayed afresh', async () => {
    for (let seed = 1; seed <= 12; seed++) {
      const r = random(seed);
      const { controller, server, clock } = setup({ retry: 0 });
      const { store, optimistic } = controller[controllerInternals]();
      const id = () => String(r.int(6));
      const todo = (pk: string, step: number) => ({
        id: pk,
        title: `title ${step}`,
        completed: r.int(2) === 1,
      });
      controller.setResponse(api.getList, {}, [todo('1', 0), todo('2', 0), todo('3', 0)]);
      const settled: Promise<unknown>[] = [];
      const track = (promise: Promise<unknown>) => settled.push(promise.catch(() => {}));
      let pendingSteps = 0;
      // The replay stamps what it writes with the time it ran: compare when the store changed
      // (the clock does not move between a step's writes and its check).
      let changed = false;
      const stop = store.subscribe(() => void (changed = true));
      let lastVisible = store.visible;
      for (let step = 1; step <= 150; step++) {
        clock.advance(r.int(3));
        switch (r.int(9)) {
          case 0:
          case 1:
            track(controller.fetch(api.update, { id: id() }, { title: `typed ${step}` }));
            break;
          case 2:
            track(controller.fetch(api.remove, { id: id() }));
            break;
          case 3:
            track(controller.fetch(api.create, {}, { id: `n${step}`, title: 'new' }));
            break;
          case 4:
          case 5: {
            // The server answers one waiting request, in any order.
            const request = r.pick(server.waiting);
            if (!request) break;
            const taken = server.take(`${request.method} ${request.url}`);
            const pk = request.url.split('/')[2] ?? `n${step}`;
            if (r.int(4) === 0) taken.respond(500, { message: 'no' });
            else if (request.method === 'GET' && pk === `n${step}`)
              taken.respond(200, [todo('1', step), todo(id(), step)]);
            else if (request.method === 'POST') taken.respond(200, todo(`n${step}`, step));
            else taken.respond(200, todo(pk, step));
            break;
          }
          case 6:
            controller.setResponse(api.get, { id: id() }, todo(id(), step));
            break;
          case 7:
            if (r.int(2) === 0) controller.invalidate(api.get, { id: id() });
            else controller.getState(); // handed out: the next write copies records
            break;
          default:
            track(controller.fetch(r.int(2) === 0 ? api.getList : api.get, { id: id() }));
        }
        await flush();
        const committed = store.committed;
        if (committed.optimistic.length > 0) pendingSteps++;
        if (!changed) {
          assert.equal(store.visible, lastVisible, `seed ${seed}, step ${step}: nothing changed`);
          continue;
        }
        changed = false;
        lastVisible = store.visible;
        const expected =
          committed.optimistic.length === 0 ? committed : optimistic.replay(committed).state;
        assert.deepEqual(store.visible, expected, `seed ${seed}, step ${step}`);
      }
      // Everything answered: nothing pending, and readers see the committed state itself.
      while (server.waiting.length > 0) {
        const request = server.waiting[0]!;
        server.take().respond(200, todo(request.url.split('/')[2] ?? 'x', 999));
        await flush();
      }
      await Promise.all(settled);
      assert.deepEqual(store.committed.optimistic, []);
      assert.equal(store.visible, store.committed);
      assert.ok(pendingSteps > 30, `seed ${seed}: updates were pending for ${pendingSteps} steps`);
      stop();
      controller.dispose();
    }
  });
});
