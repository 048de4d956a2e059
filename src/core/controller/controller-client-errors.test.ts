// A client error (4xx) is the server's answer to the request itself: asking again on the next
// render would only get it again. It stays shown until the read is fetched on purpose.
import { describe, it } from 'node:test';
import { strict as assert } from 'node:assert';
import { Entity } from '../schema/entity.js';
import { createResource } from '../rest/create-resource.js';
import { NetworkError } from '../errors.js';
import { ExpiryStatus } from '../protocol/types.js';
import { flush } from './test-utils/fake-fetch.js';
import { failOnUnhandledRejection, setup } from './test-utils/harness.js';

failOnUnhandledRejection();

class Note extends Entity {
  id = '';
  text = '';
  pk() {
    return this.id;
  }
  static key = 'Note';
}

const prefix = 'https://api.test';
const NoteResource = createResource({ urlPrefix: prefix, path: '/notes/:id', schema: Note });

async function failWith(status: number) {
  const harness = setup();
  const read = harness.controller.fetch(NoteResource.get, { id: 1 });
  await flush();
  harness.server.take(`GET ${prefix}/notes/1`).respond(status, { message: 'no' });
  await assert.rejects(read, NetworkError);
  return harness;
}

describe('Controller: client errors stay until the read is fetched on purpose', () => {
  for (const status of [400, 401, 403, 404, 410, 422]) {
    it(`${status}: still shown a minute later, and no render-driven fetch is sent`, async () => {
      const { controller, clock, server } = await failWith(status);
      clock.advance(60_000);
      const read = controller.getResponse(NoteResource.get, { id: 1 });
      assert.equal((read.error as NetworkError).status, status);
      assert.equal(read.expiryStatus, ExpiryStatus.Invalid);
      assert.equal(controller.fetchIfStale(NoteResource.get, { id: 1 }), undefined);
      await flush();
      assert.equal(server.calls.length, 1);
    });
  }

  for (const status of [408, 429, 500, 503]) {
    it(`${status}: passes after errorExpiryLength (1 s), so a reader may try again`, async () => {
      const { controller, clock } = await failWith(status);
      clock.advance(1_001);
      assert.equal(controller.getResponse(NoteResource.get, { id: 1 }).error, undefined);
    });
  }

  it('invalidate, focus and an explicit fetch each ask again', async () => {
    const { controller, server } = await failWith(404);
    controller.invalidate(NoteResource.get, { id: 1 });
    const again = controller.fetchIfStale(NoteResource.get, { id: 1 });
    assert.ok(again, 'invalidate clears the error, so the read is fetched');
    await flush();
    server.take(`GET ${prefix}/notes/1`).respond(404, { message: 'still no' });
    await assert.rejects(again!);

    const leave = controller.subscribe(NoteResource.get, { id: 1 });
    controller.focus();
    await flush();
    server.take(`GET ${prefix}/notes/1`).respond(200, { id: '1', text: 'found' });
    await flush();
    assert.equal((controller.getResponse(NoteResource.get, { id: 1 }).data as Note).text, 'found');
    leave();
  });

  it('an endpoint that sets errorExpiryLength keeps its own timing', async () => {
    const { controller, clock, server } = setup();
    const shortLived = NoteResource.get.extend({ errorExpiryLength: 500 });
    const read = controller.fetch(shortLived, { id: 2 });
    await flush();
    server.take(`GET ${prefix}/notes/2`).respond(404, { message: 'no' });
    await assert.rejects(read);
    clock.advance(501);
    assert.equal(controller.getResponse(shortLived, { id: 2 }).error, undefined);
  });

  it('soft errors back off: 1 s, 2 s, 4 s for failures in a row, and a success starts over', async () => {
    const { controller, clock, server } = await failWith(503);
    const attempt = async (status: number, body: object) => {
      const read = controller.fetch(NoteResource.get, { id: 1 });
      await flush();
      server.take(`GET ${prefix}/notes/1`).respond(status, body);
      await read.catch(() => {});
    };
    const errorAfter = (ms: number) => {
      clock.advance(ms);
      return controller.getResponse(NoteResource.get, { id: 1 }).error;
    };
    assert.equal(errorAfter(1_001), undefined, 'first failure: 1 s');
    await attempt(503, { message: 'again' });
    assert.notEqual(errorAfter(1_001), undefined, 'second failure: still shown after 1 s');
    assert.equal(errorAfter(1_000), undefined, '…and gone after 2 s');
    await attempt(503, { message: 'again' });
    assert.notEqual(errorAfter(3_999), undefined, 'third failure: 4 s');
    assert.equal(errorAfter(2), undefined);
    await attempt(200, { id: '1', text: 'back' });
    await attempt(503, { message: 'once more' });
    assert.equal(errorAfter(1_001), undefined, 'a success resets the backoff');
  });
});
