// docs/guide/errors.md "Conditional requests, and a 304 of your own": a conditional request the
// caller makes with its own If-None-Match header, answered 304, rejects with a NetworkError
// (status 304). The library's own revalidations are in conditional.test.ts.
import { describe, it } from 'node:test';
import { strict as assert } from 'node:assert';
import { Controller } from '../controller/controller.js';
import { NetworkError } from '../errors.js';
import { isClientError, isRetryable } from '../protocol/error-policy.js';
import { Entity } from '../schema/entity.js';
import { createResource } from './create-resource.js';
import { fakeFetch, json } from './test-utils/fake-fetch.js';

class Todo extends Entity {
  id = '';
  title = '';
  pk() {
    return this.id;
  }
  static override key = 'Todo';
}

const TodoResource = createResource({ path: '/api/todos/:id', schema: Todo });
const conditional = TodoResource.get.extend({
  requestInit: { headers: { 'If-None-Match': '"v1"' } },
});
const notModified = () => new Response(null, { status: 304, statusText: 'Not Modified' });

describe('a 304 to an If-None-Match of the caller', () => {
  it('rejects with a NetworkError of status 304 and no body', async () => {
    const fake = fakeFetch(notModified);
    const error = await conditional.run([{ id: '1' }], fake).then(
      () => assert.fail('should reject'),
      (e: unknown) => e,
    );
    assert.ok(error instanceof NetworkError);
    assert.equal(error.status, 304);
    assert.equal(error.body, undefined);
    assert.equal(error.message, 'GET /api/todos/1 failed: 304 Not Modified');
    assert.equal(fake.only().headers['If-None-Match'], '"v1"');
    // Not retried, and kept like a network failure rather than a client error.
    assert.equal(isRetryable(error), false);
    assert.equal(isClientError(error), false);
  });

  it('through a Controller: one request, the error stored, the data kept', async () => {
    const fake = fakeFetch(() => json({ id: '1', title: 'stored' }));
    const controller = new Controller({ fetch: fake.fetch });
    await controller.fetch(conditional, { id: '1' });
    fake.respond(notModified);
    await assert.rejects(controller.fetch(conditional, { id: '1' }), { status: 304 });
    assert.equal(fake.calls.length, 2, 'not retried');
    const read = controller.getResponse(conditional, { id: '1' });
    assert.equal(read.data?.title, 'stored');
    assert.ok(controller.getError(conditional, { id: '1' }) instanceof NetworkError);
  });
});
