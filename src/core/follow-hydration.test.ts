// followFilters wraps the `hydrate` reducer whenever resource-elements/hydration plugs it in: here
// after a Collection is followed (follow.test.ts has it loaded first). Its own file, so the
// hydration module is not loaded before the test imports it.
import { it } from 'node:test';
import { strict as assert } from 'node:assert';
import { Entity } from './schema/entity.js';
import { createResource } from './rest/create-resource.js';
import { followFilters } from '../follow/index.js';
import { setup } from './controller/test-utils/harness.js';

class Todo extends Entity {
  id = 0;
  completed = false;
  pk() {
    return String(this.id);
  }
  static override key = 'Todo';
}

const TodoResource = followFilters(
  createResource({ path: '/todos/:id', schema: Todo, searchParams: {} as { completed?: boolean } }),
);

it('a state hydrated by a module loaded after followFilters re-files its entities', async () => {
  const { hydrate } = await import('./hydration.js');
  const { controller, clock } = setup();
  controller.setResponse(TodoResource.getList, { completed: false }, [{ id: 1, completed: false }]);
  controller.setResponse(TodoResource.getList, { completed: true }, []);
  clock.advance(1000);
  const at = { fetchedAt: clock.now(), date: clock.now(), expiresAt: clock.now() + 60_000 };
  hydrate(controller, {
    entities: { Todo: { '1': { id: 1, completed: true } } },
    entitiesMeta: { Todo: { '1': at } },
  });
  const ids = (completed: boolean) =>
    controller.getResponse(TodoResource.getList, { completed }).data!.map((todo) => todo.id);
  assert.deepEqual([ids(false), ids(true)], [[], [1]]);
});
