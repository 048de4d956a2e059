// What the browser tests of the adapters without Lit (resource-elements/elements, /fast, /html)
// share: the todo they read and write, a Controller on a fake server, disposed after each test,
// and development mode for one test.
import { Controller } from '../../core/controller/controller.js';
import { FakeServer } from '../../core/controller/test-utils/fake-fetch.js';
import { createResource } from '../../core/rest/create-resource.js';
import { Entity } from '../../core/schema/entity.js';

export class Todo extends Entity {
  id = '';
  userId = 0;
  title = '';
  completed = false;
  url = '';
  pk() {
    return this.id;
  }
  static key = 'Todo';
}

export const TodoResource = createResource({
  path: '/todos/:id',
  schema: Todo,
  searchParams: {} as { userId?: number },
  body: {} as { title: string; userId?: number; completed?: boolean },
});

let made: Controller[] = [];

afterEach(() => {
  for (const controller of made) controller.dispose();
  made = [];
});

/** A Controller whose requests reach a fake server the test answers; disposed after the test. */
export function setup(): { server: FakeServer; controller: Controller } {
  const server = new FakeServer();
  const controller = new Controller({ fetch: server.fetch });
  made.push(controller);
  return { server, controller };
}

/**
 * Development mode while the test runs: the modules' DEV() reads process.env at each call (the
 * test runner serves the sources untransformed, with no process: production). Returns the undo.
 */
export function developing(): () => void {
  const global = globalThis as { process?: unknown };
  global.process = { env: { NODE_ENV: 'development' } };
  return () => delete global.process;
}
