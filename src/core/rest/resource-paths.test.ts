// Paths as the REST frameworks route them: a template's trailing slash is kept for every member
// (Django REST Framework answers a URL without it with a 301), and an absolute template's
// scheme, host and port are text, never parameters.
import { describe, it } from 'node:test';
import { strict as assert } from 'node:assert';
import { Entity } from '../schema/entity.js';
import { Controller } from '../controller/controller.js';
import { createResource } from './create-resource.js';
import { fakeFetch, json } from './test-utils/fake-fetch.js';

class Todo extends Entity {
  id = 0;
  title = '';
  pk() {
    return this.id;
  }
  static override key = 'Todo';
}

/** Calls every member once and returns `METHOD URL` of each request, in order. */
async function urlsOf(path: string, urlPrefix?: string) {
  const { fetch, calls } = fakeFetch(({ method }) =>
    method === 'DELETE'
      ? new Response(null, { status: 204 })
      : json(method === 'GET' ? [] : { id: 5, title: 't' }),
  );
  const controller = new Controller({ fetch, retry: 0 });
  const Resource = createResource({
    path,
    urlPrefix,
    schema: Todo,
    searchParams: {} as { page?: number },
  });
  const params = { id: 5 } as never;
  await controller.fetch(Resource.getList, { page: 2 } as never);
  await controller.fetch(Resource.getList.push, { title: 't' });
  await controller.fetch(Resource.getList.unshift, { title: 't' });
  await controller.fetch(Resource.get, params).catch(() => {});
  await controller.fetch(Resource.update, params, { title: 't' });
  await controller.fetch(Resource.partialUpdate, params, { title: 't' });
  await controller.fetch(Resource.delete, params);
  return calls.map(({ method, url }) => `${method} ${url}`);
}

describe('resource paths', () => {
  it("keep the template's trailing slash for every member, lists included", async () => {
    assert.deepEqual(await urlsOf('/api/todos/:id/'), [
      'GET /api/todos/?page=2',
      'POST /api/todos/',
      'POST /api/todos/',
      'GET /api/todos/5/',
      'PUT /api/todos/5/',
      'PATCH /api/todos/5/',
      'DELETE /api/todos/5/',
    ]);
  });

  it('add no slash to a template without one', async () => {
    assert.deepEqual((await urlsOf('/api/todos/:id')).slice(0, 4), [
      'GET /api/todos?page=2',
      'POST /api/todos',
      'POST /api/todos',
      'GET /api/todos/5',
    ]);
  });

  it('read an absolute template: scheme, host and port are not parameters', async () => {
    assert.deepEqual((await urlsOf('http://127.0.0.1:8000/api/todos/:id/')).slice(0, 4), [
      'GET http://127.0.0.1:8000/api/todos/?page=2',
      'POST http://127.0.0.1:8000/api/todos/',
      'POST http://127.0.0.1:8000/api/todos/',
      'GET http://127.0.0.1:8000/api/todos/5/',
    ]);
  });

  it('join a base URL and a trailing-slash template', async () => {
    assert.deepEqual((await urlsOf('/todos/:id/', 'https://api.example.com/v1')).slice(0, 2), [
      'GET https://api.example.com/v1/todos/?page=2',
      'POST https://api.example.com/v1/todos/',
    ]);
  });
});

describe('delete with a path parameter named like the route', () => {
  class Project extends Entity {
    id = 0;
    name = '';
    pk() {
      return this.id;
    }
    static override key = 'Project';
  }

  it('takes the pk from the last parameter when the answer is empty, and the lists drop it', async () => {
    const { fetch } = fakeFetch(({ method }) =>
      method === 'DELETE'
        ? new Response(null, { status: 204 })
        : json([
            { id: 1, name: 'a' },
            { id: 7, name: 'b' },
          ]),
    );
    const controller = new Controller({ fetch, retry: 0 });
    const Projects = createResource({ path: '/orgs/:org/projects/:project_id', schema: Project });
    await controller.fetch(Projects.getList, { org: 'x' });
    const deleted = await controller.fetch(Projects.delete, { org: 'x', project_id: 7 });
    assert.equal(deleted as unknown, 7, 'resolves with the pk it deleted');
    const left = controller.getResponse(Projects.getList, { org: 'x' }).data!;
    assert.deepEqual(
      left.map((p) => p.id),
      [1],
    );
  });
});
