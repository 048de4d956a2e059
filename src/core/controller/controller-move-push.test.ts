// Membership follows values (docs/design.md, "Collections"): after a move commits, the entity is in
// exactly the loaded lists its values match, whatever order the answer and a pushed update of the
// same entity arrive in.
import { describe, it } from 'node:test';
import { strict as assert } from 'node:assert';
import { createResource } from '../rest/create-resource.js';
import { failOnUnhandledRejection, setup } from './test-utils/harness.js';
import { flush } from './test-utils/fake-fetch.js';
import { UserTodo as Todo } from './test-utils/entities.js';

failOnUnhandledRejection();

const base = createResource({
  path: '/todos/:id',
  schema: Todo,
  searchParams: {} as { userId?: number; completed?: boolean },
});
const optimistic = base.extend({ move: { optimistic: true } });

const TODOS = [
  { id: 1, userId: 1, title: 'Write the spec', completed: false },
  { id: 2, userId: 1, title: 'Review', completed: false },
  { id: 3, userId: 1, title: 'Ship', completed: true },
];

/** The demo's board: user 1's Open and Done lists, and a search list filtered by `q`. */
function board(resource: typeof base) {
  const harness = setup();
  const { controller } = harness;
  const open = TODOS.filter((todo) => !todo.completed);
  controller.setResponse(resource.getList, { userId: 1, completed: false }, open);
  controller.setResponse(resource.getList, { userId: 1, completed: true }, [TODOS[2]]);
  controller.setResponse(resource.getList, { userId: 1, q: 'spec' } as never, [TODOS[0]]);
  const ids = (args: object) =>
    (controller.getResponse(resource.getList, args as never).data as Todo[]).map((t) => t.id);
  const lists = () => ({
    open: ids({ userId: 1, completed: false }),
    done: ids({ userId: 1, completed: true }),
    search: ids({ userId: 1, q: 'spec' }),
  });
  return { ...harness, lists };
}

/** What the server pushes (an SSE event, a synced tab): the entity alone, through controller.set. */
const push = (controller: ReturnType<typeof setup>['controller'], completed: boolean) =>
  controller.set(Todo, { ...TODOS[0], completed });

for (const [label, resource] of [
  ['optimistic', optimistic],
  ['not optimistic', base],
] as const) {
  describe(`move, ${label}: the end state does not depend on when a push lands`, () => {
    it('push before the answer', async () => {
      const { controller, server, lists } = board(resource);
      const moving = controller.fetch(resource.move, { id: 1 }, { completed: true });
      push(controller, true);
      await flush();
      server.take('PATCH /todos/1').respond(200, { ...TODOS[0], completed: true });
      await moving;
      assert.deepEqual(lists(), { open: [2], done: [3, 1], search: [1] });
    });

    it('push after the answer', async () => {
      const { controller, server, lists } = board(resource);
      const moving = controller.fetch(resource.move, { id: 1 }, { completed: true });
      await flush();
      server.take('PATCH /todos/1').respond(200, { ...TODOS[0], completed: true });
      await moving;
      push(controller, true);
      assert.deepEqual(lists(), { open: [2], done: [3, 1], search: [1] });
    });

    it('push before the request is even sent', async () => {
      const { controller, server, lists } = board(resource);
      push(controller, true);
      const moving = controller.fetch(resource.move, { id: 1 }, { completed: true });
      await flush();
      server.take('PATCH /todos/1').respond(200, { ...TODOS[0], completed: true });
      await moving;
      assert.deepEqual(lists(), { open: [2], done: [3, 1], search: [1] });
    });

    it('five toggles in a row, pushes interleaved', async () => {
      const { controller, server, lists } = board(resource);
      let completed = false;
      for (let round = 0; round < 5; round++) {
        completed = !completed;
        const moving = controller.fetch(resource.move, { id: 1 }, { completed });
        // Odd rounds: the push lands first; even rounds: after the answer.
        if (round % 2 === 0) push(controller, completed);
        await flush();
        server.take('PATCH /todos/1').respond(200, { ...TODOS[0], completed });
        await moving;
        if (round % 2 === 1) push(controller, completed);
        const now = lists();
        assert.equal(now.open.includes(1), !completed, `round ${round}: Open`);
        assert.equal(now.done.includes(1), completed, `round ${round}: Done`);
        assert.deepEqual(
          now.search,
          [1],
          `round ${round}: a list its values cannot judge keeps it`,
        );
      }
      assert.deepEqual(lists(), { open: [2], done: [3, 1], search: [1] });
    });
  });
}
