// schema.Invalidate where the response gives no usable pk: the call's URL params stand for it
// (spec rule 8), and when they give none either the request fails with nothing changed.
import { describe, it } from 'node:test';
import { strict as assert } from 'node:assert';
import { Entity } from './entity.js';
import { Invalidate } from './invalidate.js';
import { INVALID } from './types.js';
import { UnionSchema } from './union.js';
import { normalize } from '../normalize/normalize.js';
import { createResource } from '../rest/create-resource.js';
import { RestEndpoint } from '../rest/rest-endpoint.js';
import { ExpiryStatus } from '../protocol/types.js';
import { flush } from '../controller/test-utils/fake-fetch.js';
import {
  failOnUnhandledRejection,
  setup,
  withoutErrors,
} from '../controller/test-utils/harness.js';

failOnUnhandledRejection();

/** A pk() written as a template string: an input without `id` gives "undefined". */
class Todo extends Entity {
  id = '';
  title = '';
  pk() {
    return `${this.id}`;
  }
  static override key = 'Todo';
}

const prefix = 'https://api.test';
const TodoResource = createResource({ urlPrefix: prefix, path: '/todos/:id', schema: Todo });
const ids = (data: unknown) => (data as Todo[]).map((todo) => todo.id);

describe('schema.Invalidate of a response without a usable pk', () => {
  it('a delete answered { success: true } invalidates the entity its URL params name', async () => {
    const { controller, server } = setup();
    controller.setResponse(TodoResource.getList, {}, [{ id: '1' }, { id: '2' }]);
    controller.setResponse(TodoResource.get, { id: '1' }, { id: '1', title: 'a' });
    const removing = controller.fetch(TodoResource.delete, { id: '1' });
    await flush();
    server.take(`DELETE ${prefix}/todos/1`).respond(200, { success: true });
    const removed = await removing;
    assert.ok(removed instanceof Todo);
    assert.equal(removed.id, '1');
    assert.equal(controller.getState().entities.Todo!['1'], INVALID);
    assert.equal(Object.hasOwn(controller.getState().entities.Todo!, 'undefined'), false);
    assert.equal(
      controller.getResponse(TodoResource.get, { id: '1' }).expiryStatus,
      ExpiryStatus.Invalid,
    );
    assert.deepEqual(ids(controller.getResponse(TodoResource.getList, {}).data), ['2']);
  });

  it('neither the response nor the URL params give a pk: rejects naming the URL, the entity and the response; nothing changes', async () => {
    const { controller, server } = setup();
    const clear = new RestEndpoint({
      urlPrefix: prefix,
      path: '/todos/:slug',
      method: 'DELETE',
      schema: new Invalidate(Todo),
    });
    controller.setResponse(TodoResource.get, { id: '1' }, { id: '1', title: 'a' });
    const before = controller.getState();
    const removing = controller.fetch(clear, { slug: 'done' });
    await flush();
    server.take(`DELETE ${prefix}/todos/done`).respond(200, { success: true });
    await assert.rejects(
      removing,
      /DELETE https:\/\/api\.test\/todos\/done .*Invalidate\(Todo\) could not compute a pk from \{"success":true\}/,
    );
    assert.deepEqual(withoutErrors(controller.getState()), withoutErrors(before));
  });

  it('normalize: the URL params stand in for the whole response only', () => {
    const invalidate = new Invalidate(Todo);
    for (const response of [{ success: true }, { id: '' }, {}]) {
      const { result, entities } = normalize(invalidate, response, [{ id: '1' }]);
      assert.deepEqual(entities, { Todo: { '1': INVALID } });
      assert.deepEqual(result, { id: '1' });
    }
    // A usable pk in the response wins over the params.
    assert.deepEqual(normalize(invalidate, { id: '2' }, [{ id: '1' }]).entities, {
      Todo: { '2': INVALID },
    });
    // A bare pk goes through the same check.
    for (const bare of ['undefined', '', Number.NaN]) {
      assert.throws(
        () => normalize([invalidate], [bare]),
        /Invalidate\(Todo\) could not compute a pk from .* at response\[0\]/,
      );
    }
    // Nested (a batch), each member must give its own pk.
    assert.throws(
      () => normalize([invalidate], [{ id: '2' }, { success: true }], [{ id: '1' }]),
      /Invalidate\(Todo\) could not compute a pk from \{"success":true\} at response\[1\]/,
    );
  });

  it('normalize: a Union member is read from the URL params when the response does not say it', () => {
    class Link extends Entity {
      id = '';
      type = 'link';
      pk() {
        return this.id;
      }
      static override key = 'Link';
    }
    const invalidate = new Invalidate(new UnionSchema({ link: Link }, 'type'));
    const { result, entities } = normalize(invalidate, { success: true }, [
      { id: '5', type: 'link' },
    ]);
    assert.deepEqual(entities, { Link: { '5': INVALID } });
    assert.deepEqual(result, { id: '5', type: 'link' });
    assert.throws(
      () => normalize(invalidate, { success: true }, [{ id: '5' }]),
      /Invalidate\(.*\) cannot tell which of link \{"success":true\} is/,
    );
  });
});
