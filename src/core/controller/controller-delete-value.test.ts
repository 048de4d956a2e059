// docs/guide/invalidate.md "What a delete resolves with": through a Controller, createResource's
// delete resolves with an instance built from the answer or, when it names no pk, from the URL
// params; a bare pk comes back as it is. The entity is INVALID in the store in every case.
import { describe, it } from 'node:test';
import { strict as assert } from 'node:assert';
import { Entity } from '../schema/entity.js';
import { createResource } from '../rest/create-resource.js';
import { fakeFetch, json, text } from '../rest/test-utils/fake-fetch.js';
import { ExpiryStatus } from '../protocol/types.js';
import { Controller } from './controller.js';

class Todo extends Entity {
  id = '';
  title = '';
  pk() {
    return this.id;
  }
  static override key = 'Todo';
}

const TodoResource = createResource({ path: '/api/todos/:id', schema: Todo });

async function deleteAnswered(answer: () => Response): Promise<unknown> {
  const fake = fakeFetch(() => json({ id: '3', title: 'stored' }));
  const controller = new Controller({ fetch: fake.fetch });
  await controller.fetch(TodoResource.get, { id: '3' });
  fake.respond(answer);
  const value = await controller.fetch(TodoResource.delete, { id: '3' });
  const read = controller.getResponse(TodoResource.get, { id: '3' });
  assert.equal(read.expiryStatus, ExpiryStatus.Invalid, 'the todo is INVALID');
  return value;
}

describe('what the delete of createResource resolves with through a Controller', () => {
  it('the deleted record: a Todo built from it', async () => {
    const value = await deleteAnswered(() => json({ id: '3', title: 'Buy milk' }));
    assert.ok(value instanceof Todo);
    assert.deepEqual({ ...value }, { id: '3', title: 'Buy milk' });
  });

  it('no body, or a body without a pk: a Todo built from the URL params', async () => {
    for (const answer of [
      () => new Response(null, { status: 204 }),
      () => json({ success: true }),
      () => json({}),
    ]) {
      const value = await deleteAnswered(answer);
      assert.ok(value instanceof Todo);
      assert.deepEqual({ ...value }, { id: '3', title: '' });
    }
  });

  it('a bare pk: the pk as it is', async () => {
    assert.equal(await deleteAnswered(() => json(3)), 3);
    assert.equal(await deleteAnswered(() => text('3')), '3');
  });
});
