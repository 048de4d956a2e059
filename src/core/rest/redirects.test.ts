// Never silently wrong: a mutation answered after a redirect (fetch follows a 301/302/303 as a
// GET without the body) and a create answered with a list reject naming the URL, and the store
// keeps what it had.
import { describe, it } from 'node:test';
import { strict as assert } from 'node:assert';
import { Entity } from '../schema/entity.js';
import { Controller } from '../controller/controller.js';
import { createResource } from './create-resource.js';
import { fakeFetch, json } from './test-utils/fake-fetch.js';
import type { RecordedRequest } from './test-utils/fake-fetch.js';

class Todo extends Entity {
  id = 0;
  title = '';
  pk() {
    return this.id;
  }
  static override key = 'Todo';
}

const TEN = Array.from({ length: 10 }, (_, i) => ({ id: i + 1, title: `todo ${i + 1}` }));

/** What Django's APPEND_SLASH and fetch make of a POST to /api/todos: the list, by a GET. */
function redirected(value: unknown, to: string): Response {
  const response = json(value);
  Object.defineProperty(response, 'redirected', { value: true });
  Object.defineProperty(response, 'url', { value: to });
  return response;
}

function setup(answer: (request: RecordedRequest) => Response) {
  const { fetch, calls } = fakeFetch(answer);
  const controller = new Controller({ fetch, retry: 0 });
  return { controller, calls };
}

describe('a mutation answered after a redirect', () => {
  const Resource = createResource({ path: 'https://api.test/api/todos/:id', schema: Todo });

  it('rejects naming both URLs, and nothing is stored', async () => {
    const { controller } = setup(({ method }) =>
      method === 'POST' ? redirected(TEN, 'https://api.test/api/todos/') : json([TEN[0]]),
    );
    await controller.fetch(Resource.getList, {});
    const before = controller.getState();
    await assert.rejects(
      controller.fetch(Resource.getList.push, { title: 'Buy milk' }),
      (error: Error) => {
        assert.match(
          error.message,
          /^POST https:\/\/api\.test\/api\/todos was redirected to https:\/\/api\.test\/api\/todos\//,
        );
        return true;
      },
    );
    assert.deepEqual(controller.getState().entities, before.entities);
    assert.deepEqual(controller.getState().endpoints, before.endpoints);
  });

  it('is accepted with allowRedirects (an API that answers 307/308)', async () => {
    const Follows = Resource.extend({ update: { allowRedirects: true } });
    const { controller } = setup(() =>
      redirected({ id: 1, title: 'kept' }, 'https://api.test/api/todos/1/'),
    );
    const todo = await controller.fetch(Follows.update, { id: 1 }, { title: 'kept' });
    assert.equal(todo.title, 'kept');
  });

  it('leaves a read that was redirected alone', async () => {
    const { controller } = setup(() =>
      redirected({ id: 1, title: 'moved' }, 'https://api.test/api/todos/1/'),
    );
    const todo = await controller.fetch(Resource.get, { id: 1 });
    assert.equal(todo.title, 'moved');
  });
});

describe('a create answered with a list', () => {
  const Resource = createResource({ path: 'https://api.test/todos/:id', schema: Todo });

  it('rejects naming the URL, and the lists keep what they had', async () => {
    const { controller } = setup(({ method }) => (method === 'POST' ? json(TEN) : json([TEN[0]])));
    await controller.fetch(Resource.getList, {});
    const before = controller.getState();
    await assert.rejects(
      controller.fetch(Resource.getList.unshift, { title: 'one' }),
      /^TypeError: POST https:\/\/api\.test\/todos answered an array \(10\) for one created entity/,
    );
    assert.deepEqual(controller.getState().entities, before.entities);
  });

  it('is fine for a body that is a list (a bulk create)', async () => {
    const { controller } = setup(({ method }) =>
      method === 'POST' ? json(TEN.slice(0, 2)) : json([]),
    );
    await controller.fetch(Resource.getList, {});
    const created = await controller.fetch(Resource.getList.push, [
      { title: 'a' },
      { title: 'b' },
    ] as never);
    assert.equal((created as unknown as Todo[]).length, 2);
  });
});
