import { describe, it } from 'node:test';
import { strict as assert } from 'node:assert';
import { Collection } from '../schema/collection.js';
import { Entity } from '../schema/entity.js';
import { Invalidate } from '../schema/invalidate.js';
import { createResource } from './create-resource.js';
import { hookifyResource } from './hookify-resource.js';
import { fakeFetch, json } from './test-utils/fake-fetch.js';

const prefix = 'https://api.test';

class Todo extends Entity {
  id = '';
  title = '';
  pk() {
    return this.id;
  }
  static override key = 'Todo';
}

const TodoResource = createResource({
  urlPrefix: prefix,
  path: '/todos/:id',
  schema: Todo,
  paginationField: 'page',
});

describe('hookifyResource', () => {
  const state = { token: 'T1' };
  const hooks = hookifyResource(TodoResource, () => ({ headers: { 'Access-Token': state.token } }));

  it('has a use<Member> hook per member, each sending the Access-Token header', async () => {
    assert.deepEqual(Object.keys(hooks).sort(), [
      'useDelete',
      'useGet',
      'useGetList',
      'useMove',
      'usePartialUpdate',
      'useUpdate',
    ]);
    const fake = fakeFetch(() => json({ id: '1' }));
    const opts = { fetch: fake.fetch };
    await hooks.useGet().run([{ id: 1 }], opts);
    await hooks.useGetList().run([{ q: 'x' }], opts);
    await hooks.useGetList().push.run([{ title: 'a' }], opts);
    await hooks.useGetList().unshift.run([{ title: 'b' }], opts);
    fake.respond(() => json([]));
    await hooks.useGetList().getPage.run([{ page: 2, q: 'x' }], opts);
    fake.respond(() => json({ id: '1' }));
    await hooks.useUpdate().run([{ id: 1 }, { title: 'c' }], opts);
    await hooks.usePartialUpdate().run([{ id: 1 }, { title: 'd' }], opts);
    await hooks.useMove().run([{ id: 1 }, { title: 'e' }], opts);
    await hooks.useGetList().remove.run([{ q: 'x' }, { id: '1' }], opts);
    await hooks.useDelete().run([{ id: 1 }], opts);
    const token = { 'Access-Token': 'T1' };
    const withJson = { ...token, 'Content-Type': 'application/json' };
    assert.deepEqual(
      fake.calls.map(({ method, url, headers }) => [method, url, headers]),
      [
        ['GET', `${prefix}/todos/1`, token],
        ['GET', `${prefix}/todos?q=x`, token],
        ['POST', `${prefix}/todos`, { 'Content-Type': 'application/json', ...token }],
        ['POST', `${prefix}/todos`, { 'Content-Type': 'application/json', ...token }],
        ['GET', `${prefix}/todos?q=x&page=2`, token],
        ['PUT', `${prefix}/todos/1`, withJson],
        ['PATCH', `${prefix}/todos/1`, withJson],
        ['PATCH', `${prefix}/todos/1`, withJson],
        ['PATCH', `${prefix}/todos?q=x`, withJson],
        ['DELETE', `${prefix}/todos/1`, token],
      ].map(([m, u, h]) => [m, u, h]),
    );
  });

  it('keeps the schemas of the hook table', () => {
    assert.equal(hooks.useGet().schema, Todo);
    assert.ok(hooks.useGetList().schema instanceof Collection);
    assert.equal(hooks.useGetList().push.schema, hooks.useGetList().schema.push);
    assert.equal(hooks.useGetList().remove.schema, hooks.useGetList().schema.remove);
    assert.equal(hooks.useMove().schema, hooks.useGetList().schema.move);
    assert.equal((hooks.useGetList().getPage.schema as any).mode, 'add');
    assert.ok(hooks.useDelete().schema instanceof Invalidate);
    assert.equal(hooks.useUpdate().method, 'PUT');
    assert.equal(hooks.usePartialUpdate().method, 'PATCH');
  });

  it('returns the same endpoint while the init is equal (headers by value), a new one when it changes', () => {
    const first = hooks.useGet();
    assert.equal(hooks.useGet(), first);
    assert.equal(hooks.useGetList().push, hooks.useGetList().push);
    state.token = 'T2';
    const second = hooks.useGet();
    assert.notEqual(second, first);
    assert.deepEqual(second.requestInit, { headers: { 'Access-Token': 'T2' } });
    assert.deepEqual(first.requestInit, { headers: { 'Access-Token': 'T1' } });
    assert.equal(TodoResource.get.requestInit, undefined, 'the resource is unchanged');
    state.token = 'T1';
  });

  it('without useInit returns the members themselves', () => {
    const plain = hookifyResource(TodoResource);
    assert.equal(plain.useGet(), TodoResource.get);
    assert.equal(plain.useGetList().getPage, TodoResource.getList.getPage);
  });

  it('makes hooks for members added by extend', async () => {
    const Extended = TodoResource.extend('search', { path: '/todos/search', schema: [Todo] });
    const extHooks = hookifyResource(Extended, () => ({ headers: { 'Access-Token': 'S' } }));
    const fake = fakeFetch(() => json([]));
    await extHooks.useSearch().run([], { fetch: fake.fetch });
    assert.deepEqual(fake.only().headers, { 'Access-Token': 'S' });
    assert.equal(fake.only().url, `${prefix}/todos/search`);
  });
});
