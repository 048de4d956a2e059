// Races in the core: responses that arrive out of order, a reset while requests are in flight, and
// optimistic mutations that overlap and fail. The server is answered by hand, in the order each
// case needs; time moves only when a case says so.
import { describe, it } from 'node:test';
import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { Controller } from '../../src/core/controller/controller.js';
import { FakeClock } from '../../src/core/controller/test-utils/fake-clock.js';
import { FakeServer, flush } from '../../src/core/controller/test-utils/fake-fetch.js';
import { createResource } from '../../src/core/rest/create-resource.js';
import { RestEndpoint } from '../../src/core/rest/rest-endpoint.js';
import { Entity } from '../../src/core/schema/entity.js';
import { NetworkError } from '../../src/core/errors.js';
import { failOnUnhandledRejection, rejectionOf, storedData } from './support.js';

class Task extends Entity {
  id = '';
  title = '';
  done = false;
  pk() {
    return this.id;
  }
  static key = 'RelTask';
}

// retry: 0: these races are between single attempts (a failure settling before or after another
// answer); a retried read would stay in flight. Retries are tested in src/core/controller/retry.test.ts.
const Tasks = createResource({ path: '/tasks/:id', schema: Task, optimistic: true, retry: 0 });
/**
 * Same store key as Tasks.get ('GET /tasks/:id'), but a different request key per `v`
 * (`keepsPage: false`: a call with `v` lands where the call without it is stored).
 */
const versioned = new RestEndpoint({
  path: '/tasks/:id',
  schema: Task,
  paginationField: 'v',
  keepsPage: false,
  searchParams: {} as { v?: number },
  retry: 0,
});

failOnUnhandledRejection();

function setup() {
  const clock = new FakeClock();
  const server = new FakeServer();
  const controller = new Controller({ fetch: server.fetch, now: clock.now, timers: clock.timers });
  return { clock, server, controller };
}

/** A controller holding task 1 ('stored') and task 2 ('bystander'). */
async function stocked() {
  const harness = setup();
  const { controller, server, clock } = harness;
  const one = controller.fetch(Tasks.get, { id: '1' });
  const two = controller.fetch(Tasks.get, { id: '2' });
  (await take(server, 'GET /tasks/1')).respond(200, { id: '1', title: 'stored', done: false });
  (await take(server, 'GET /tasks/2')).respond(200, { id: '2', title: 'bystander', done: false });
  await Promise.all([one, two]);
  clock.advance(10);
  return harness;
}

/** The oldest unanswered request (for `METHOD url`), once endpoints have sent what they will. */
async function take(server: FakeServer, match?: string) {
  // RestEndpoint builds its request init asynchronously: the fetch call comes a tick later.
  await flush();
  return server.take(match);
}

const titleOf = (controller: Controller, id: string) =>
  controller.getResponse(Tasks.get, { id }).data?.title;

describe('reliability: out-of-order responses', () => {
  it('an older response for the same key arriving last changes nothing', async () => {
    const { controller, server, clock } = await stocked();
    const older = controller.fetch(versioned, { id: '1', v: 1 });
    clock.advance(5);
    const newer = controller.fetch(versioned, { id: '1', v: 2 });
    (await take(server, 'GET /tasks/1?v=2')).respond(200, { id: '1', title: 'newer', done: true });
    await newer;
    const committed = storedData(controller);
    (await take(server, 'GET /tasks/1?v=1')).respond(200, { id: '1', title: 'older', done: false });
    const late = await older;
    assert.equal(late.title, 'newer', 'the late caller sees the newer values too');
    assert.equal(storedData(controller), committed);
    assert.equal(controller.getResponse(versioned, { id: '1' }).data?.title, 'newer');
    assert.equal(titleOf(controller, '2'), 'bystander');
  });

  it('an older error for the same key arriving last neither shows nor replaces newer data', async () => {
    const { controller, server, clock } = await stocked();
    const older = controller.fetch(versioned, { id: '1', v: 1 });
    clock.advance(5);
    const newer = controller.fetch(versioned, { id: '1', v: 2 });
    (await take(server, 'GET /tasks/1?v=2')).respond(200, { id: '1', title: 'newer' });
    await newer;
    (await take(server, 'GET /tasks/1?v=1')).respond(500, { message: 'old failure' });
    const error = await rejectionOf(older);
    assert.ok(error instanceof NetworkError);
    const read = controller.getResponse(versioned, { id: '1' });
    assert.equal(read.data?.title, 'newer');
    assert.equal(read.error, undefined, 'a stale failure is not shown over newer data');
  });

  it('an older detail response does not overwrite entity values a newer list brought', async () => {
    const { controller, server, clock } = await stocked();
    const detail = controller.fetch(Tasks.get.extend({ dataExpiryLength: 1 }), { id: '1' });
    // The detail read is already in flight: dedupe gives the same request. Go through the list.
    clock.advance(5);
    const list = controller.fetch(Tasks.getList);
    (await take(server, 'GET /tasks')).respond(200, [{ id: '1', title: 'from list', done: true }]);
    await list;
    (await take(server, 'GET /tasks/1')).respond(200, {
      id: '1',
      title: 'from old detail',
      done: false,
    });
    await detail;
    assert.equal(titleOf(controller, '1'), 'from list');
    assert.equal(controller.getResponse(Tasks.getList).data?.[0]?.done, true);
  });

  it('two updates answered in reverse order: the later-started one wins', async () => {
    const { controller, server, clock } = await stocked();
    const plain = createResource({ path: '/tasks/:id', schema: Task });
    const first = controller.fetch(plain.update, { id: '1' }, { title: 'first' });
    clock.advance(5);
    const second = controller.fetch(plain.update, { id: '1' }, { title: 'second' });
    const [a, b] = [await take(server), await take(server)];
    b.respond(200, { id: '1', title: 'second' });
    await second;
    a.respond(200, { id: '1', title: 'first' });
    await first;
    assert.equal(titleOf(controller, '1'), 'second');
  });

  it('any arrival order of many responses for one key ends on the newest request', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc
          .integer({ min: 2, max: 8 })
          .chain((count) =>
            fc.tuple(
              fc.constant(count),
              fc.shuffledSubarray([...Array(count).keys()], { minLength: count }),
            ),
          ),
        fc.array(fc.boolean(), { minLength: 8, maxLength: 8 }),
        async ([count, order], failures) => {
          const { controller, server, clock } = setup();
          const pending = [];
          for (let v = 0; v < count; v++) {
            pending.push(controller.fetch(versioned, { id: '1', v }).catch((error) => error));
            clock.advance(1);
          }
          await flush();
          const requests = [...server.waiting];
          for (const index of order) {
            // The newest request always succeeds; the others may fail.
            if (failures[index] && index !== count - 1) requests[index]!.respond(503, '');
            else requests[index]!.respond(200, { id: '1', title: `v${index}` });
            await flush();
          }
          await Promise.all(pending);
          const read = controller.getResponse(versioned, { id: '1' });
          assert.equal(read.data?.title, `v${count - 1}`);
          assert.equal(read.error, undefined);
          assert.equal(controller.stats().inFlight, 0);
        },
      ),
      { numRuns: 150 },
    );
  });
});

describe('reliability: resetEntireStore mid-flight', () => {
  it('a response to a request started before the reset is dropped; its caller still settles', async () => {
    const { controller, server } = await stocked();
    const before = controller.fetch(Tasks.get, { id: '3' });
    controller.resetEntireStore();
    (await take(server, 'GET /tasks/3')).respond(200, { id: '3', title: 'from before the reset' });
    const value = await before;
    assert.equal(value.title, 'from before the reset');
    assert.deepEqual(controller.getState().entities, {});
    assert.deepEqual(controller.getState().endpoints, {});
    assert.equal(controller.getResponse(Tasks.get, { id: '3' }).data, undefined);
  });

  it('a reader pending at the reset gets a new read, so it knows to fetch again', async () => {
    const { controller, server } = await stocked();
    const before = controller.fetch(Tasks.get, { id: '3' });
    const pendingRead = controller.getResponse(Tasks.get, { id: '3' });
    let notified = 0;
    const remove = controller.addListener(() => notified++);
    controller.resetEntireStore();
    remove();
    assert.equal(notified, 1);
    // Same content (nothing to show), but not the same object: a reader comparing by reference
    // re-reads, and its fetchIfStale starts a request that is not dropped.
    const afterReset = controller.getResponse(Tasks.get, { id: '3' });
    assert.notEqual(afterReset, pendingRead);
    const again = controller.fetchIfStale(Tasks.get, { id: '3' });
    assert.ok(again, 'a new request started');
    (await take(server, 'GET /tasks/3')).respond(200, { id: '3', title: 'old' });
    (await take(server, 'GET /tasks/3')).respond(200, { id: '3', title: 'new' });
    await Promise.all([before, again]);
    assert.equal(titleOf(controller, '3'), 'new');
  });

  it('a failure of a request started before the reset is not stored', async () => {
    const { controller, server } = await stocked();
    const before = controller.fetch(Tasks.get, { id: '1' });
    controller.resetEntireStore();
    (await take(server, 'GET /tasks/1')).respond(500, { message: 'down' });
    await rejectionOf(before);
    assert.deepEqual(controller.getState().errors, {});
  });

  it('a read after the reset does not join the request from before it', async () => {
    const { controller, server } = await stocked();
    const before = controller.fetch(Tasks.get, { id: '1' });
    controller.resetEntireStore();
    const after = controller.fetch(Tasks.get, { id: '1' });
    await flush();
    assert.equal(server.waiting.length, 2, 'a new request was sent');
    (await take(server, 'GET /tasks/1')).respond(200, { id: '1', title: 'old session' });
    (await take(server, 'GET /tasks/1')).respond(200, { id: '1', title: 'new session' });
    await Promise.all([before, after]);
    assert.equal(titleOf(controller, '1'), 'new session');
  });

  it('an optimistic mutation in flight at the reset leaves nothing behind', async () => {
    const { controller, server } = await stocked();
    const mutation = controller.fetch(Tasks.partialUpdate, { id: '1' }, { title: 'optimistic' });
    assert.equal(titleOf(controller, '1'), 'optimistic');
    controller.resetEntireStore();
    assert.equal(controller.getState().optimistic.length, 0);
    assert.equal(titleOf(controller, '1'), undefined);
    (await take(server, 'PATCH /tasks/1')).respond(200, { id: '1', title: 'server' });
    await mutation;
    assert.deepEqual(controller.getState().entities, {});
    assert.equal(controller.stats().inFlight, 0);
    // The page keeps working.
    const again = controller.fetch(Tasks.get, { id: '1' });
    (await take(server, 'GET /tasks/1')).respond(200, { id: '1', title: 'fresh' });
    assert.equal((await again).title, 'fresh');
  });
});

describe('reliability: overlapping optimistic mutations', () => {
  const orders = [
    ['the failure settles first', ['fail', 'succeed']],
    ['the success settles first', ['succeed', 'fail']],
  ] as const;

  for (const [name, order] of orders) {
    it(`first fails, second succeeds (${name}): the store ends on the server's truth`, async () => {
      const { controller, server, clock } = await stocked();
      // Handled from the start, as an app's code would: the failure must not go unhandled.
      const first = rejectionOf(controller.fetch(Tasks.partialUpdate, { id: '1' }, { title: 'A' }));
      clock.advance(1);
      const second = controller.fetch(Tasks.partialUpdate, { id: '1' }, { done: true });
      // Both guesses show at once.
      assert.equal(titleOf(controller, '1'), 'A');
      assert.equal(controller.getResponse(Tasks.get, { id: '1' }).data?.done, true);
      const [a, b] = [await take(server), await take(server)];
      for (const step of order) {
        if (step === 'fail') a.respond(409, { message: 'conflict' });
        else b.respond(200, { id: '1', title: 'stored', done: true });
        await flush();
      }
      const failure = await first;
      assert.ok(failure instanceof NetworkError);
      assert.equal(failure.status, 409);
      await second;
      const task = controller.getResponse(Tasks.get, { id: '1' }).data!;
      assert.deepEqual({ title: task.title, done: task.done }, { title: 'stored', done: true });
      assert.equal(controller.getState().optimistic.length, 0);
      assert.equal(titleOf(controller, '2'), 'bystander');
    });
  }

  it('first fails, second succeeds on the same field: the second answer stays', async () => {
    const { controller, server, clock } = await stocked();
    const first = controller.fetch(Tasks.partialUpdate, { id: '1' }, { title: 'A' });
    clock.advance(1);
    const second = controller.fetch(Tasks.partialUpdate, { id: '1' }, { title: 'B' });
    const [a, b] = [await take(server), await take(server)];
    b.respond(200, { id: '1', title: 'B', done: false });
    await second;
    assert.equal(titleOf(controller, '1'), 'B');
    a.respond(500, '');
    await rejectionOf(first);
    assert.equal(titleOf(controller, '1'), 'B', 'rolling back A does not bring back "stored"');
  });

  it('both fail: the store is exactly as before either was applied', async () => {
    const { controller, server, clock } = await stocked();
    const before = storedData(controller);
    const first = rejectionOf(controller.fetch(Tasks.partialUpdate, { id: '1' }, { title: 'A' }));
    clock.advance(1);
    const second = rejectionOf(controller.fetch(Tasks.delete, { id: '2' }));
    assert.equal(controller.getResponse(Tasks.get, { id: '2' }).expiryStatus, 'invalid');
    (await take(server, 'DELETE /tasks/2')).fail();
    (await take(server, 'PATCH /tasks/1')).respond(422, { message: 'invalid' });
    await Promise.all([first, second]);
    assert.equal(storedData(controller), before);
    assert.equal(titleOf(controller, '1'), 'stored');
    assert.equal(titleOf(controller, '2'), 'bystander');
  });
});
