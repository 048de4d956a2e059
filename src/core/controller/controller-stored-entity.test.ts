// A GET of one entity is served from the store when a list (or any read) already brought it.
import { describe, it } from 'node:test';
import { strict as assert } from 'node:assert';
import { Entity } from '../schema/entity.js';
import { createResource } from '../rest/create-resource.js';
import { ExpiryStatus } from '../protocol/types.js';
import { flush } from './test-utils/fake-fetch.js';
import { failOnUnhandledRejection, setup } from './test-utils/harness.js';

failOnUnhandledRejection();

class Item extends Entity {
  id = '';
  name = '';
  pk() {
    return this.id;
  }
  static key = 'Item';
}

const prefix = 'https://api.test';
const ItemResource = createResource({ urlPrefix: prefix, path: '/items/:id', schema: Item });

async function loadList(options: Parameters<typeof setup>[0] = {}) {
  const harness = setup(options);
  const list = harness.controller.fetch(ItemResource.getList, {});
  await flush();
  harness.server.take(`GET ${prefix}/items`).respond(200, [
    { id: '1', name: 'one' },
    { id: '2', name: 'two' },
  ]);
  const items = (await list) as Item[];
  return { ...harness, items };
}

describe('Controller: one entity read from the store', () => {
  it('a get for an entity a list brought is valid at once, the same instance, and sends nothing', async () => {
    const { controller, server, items } = await loadList();
    const read = controller.getResponse(ItemResource.get, { id: 2 });
    assert.equal(read.expiryStatus, ExpiryStatus.Valid);
    assert.equal(read.data, items[1]);
    assert.equal(controller.fetchIfStale(ItemResource.get, { id: '2' }), undefined);
    await flush();
    assert.equal(server.calls.length, 1, 'only the list was requested');
  });

  it('an entity the store does not hold is invalid, so it is fetched', async () => {
    const { controller, server } = await loadList();
    assert.equal(
      controller.getResponse(ItemResource.get, { id: 3 }).expiryStatus,
      ExpiryStatus.Invalid,
    );
    const fetched = controller.fetchIfStale(ItemResource.get, { id: 3 });
    await flush();
    server.take(`GET ${prefix}/items/3`).respond(200, { id: '3', name: 'three' });
    assert.equal(((await fetched) as Item).name, 'three');
  });

  it('goes stale with the response that brought it', async () => {
    const { controller, clock } = await loadList();
    clock.advance(60_001);
    const read = controller.getResponse(ItemResource.get, { id: 1 });
    assert.equal(read.expiryStatus, ExpiryStatus.Stale);
    assert.equal((read.data as Item).name, 'one');
  });

  it('is invalid once the entity is deleted', async () => {
    const { controller, server } = await loadList();
    const removed = controller.fetch(ItemResource.delete, { id: 1 });
    await flush();
    server.take(`DELETE ${prefix}/items/1`).respond(204);
    await removed;
    assert.equal(
      controller.getResponse(ItemResource.get, { id: 1 }).expiryStatus,
      ExpiryStatus.Invalid,
    );
  });

  it('a subscribed read keeps its entity through garbage collection of the list', async () => {
    const { controller, clock } = await loadList({ gcTime: 1000 });
    const leave = controller.subscribe(ItemResource.get, { id: 2 });
    clock.advance(5000);
    assert.equal(
      controller.getResponse(ItemResource.getList, {}).expiryStatus,
      ExpiryStatus.Invalid,
      'the list was collected',
    );
    const read = controller.getResponse(ItemResource.get, { id: 2 });
    assert.equal((read.data as Item | undefined)?.name, 'two');
    assert.equal(
      controller.getResponse(ItemResource.get, { id: 1 }).expiryStatus,
      ExpiryStatus.Invalid,
      'unread entity was collected',
    );
    leave();
  });
});

describe('Controller: updates at scale', () => {
  it('a getState() snapshot is not changed by later updates', async () => {
    const { controller } = await loadList();
    controller.setResponse(ItemResource.get, { id: '1' }, { id: '1', name: 'first rename' });
    const snapshot = controller.getState();
    const json = JSON.stringify(snapshot);
    controller.setResponse(ItemResource.get, { id: '1' }, { id: '1', name: 'second rename' });
    controller.setResponse(ItemResource.get, { id: '3' }, { id: '3', name: 'new' });
    assert.equal(JSON.stringify(snapshot), json);
    assert.equal(
      (controller.getResponse(ItemResource.get, { id: '1' }).data as Item).name,
      'second rename',
    );
  });

  it('a failed update leaves the tables it would have written in place untouched', async () => {
    const { controller } = await loadList();
    controller.setResponse(ItemResource.get, { id: '1' }, { id: '1', name: 'owned now' });
    const before = JSON.stringify(controller.getResponse(ItemResource.getList, {}).data);
    assert.throws(() =>
      controller.setResponse(ItemResource.getList, {}, [{ id: '1', name: 'x' }, { name: 'no pk' }]),
    );
    assert.equal(JSON.stringify(controller.getResponse(ItemResource.getList, {}).data), before);
  });
});
