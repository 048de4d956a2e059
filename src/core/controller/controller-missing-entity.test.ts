// Missing is not INVALID: a nested reference to an entity the store does not hold (a pk the server
// sent without the entity) reads as undefined in its field and never sends a request by itself.
// Only an INVALID entity makes a required field invalidate its response, and a response still
// invalid right after its own answer is an error, not another request.
import { describe, it } from 'node:test';
import { strict as assert } from 'node:assert';
import { Entity } from '../schema/entity.js';
import { createResource } from '../rest/create-resource.js';
import { ExpiryStatus } from '../protocol/types.js';
import { Controller } from './controller.js';
import { ReadStatus } from './response-observer.js';
import { failOnUnhandledRejection } from './test-utils/harness.js';

failOnUnhandledRejection();

class Food extends Entity {
  id = '';
  name = '';
  pk() {
    return this.id;
  }
  static key = 'Food';
}

class Menu extends Entity {
  id = '';
  // Required: its default is an entity, not null.
  food = Food.fromJS();
  pk() {
    return this.id;
  }
  static key = 'Menu';
  static schema = { food: Food };
}

const prefix = 'https://api.test';
const MenuResource = createResource({ urlPrefix: prefix, path: '/menus/:id', schema: Menu });
const FoodResource = createResource({ urlPrefix: prefix, path: '/foods/:id', schema: Food });

/** A server that answers every request with `body`, after `latency` ms (0: at once), counted. */
function countingFetch(body: unknown, latency: number) {
  const urls: string[] = [];
  const fetch = async (input: RequestInfo | URL) => {
    urls.push(String(input));
    // A storm of instant answers never yields to a timer: past 20, stop answering, so it ends.
    if (urls.length > 20) return new Promise<Response>(() => {});
    if (latency > 0) await new Promise((resolve) => setTimeout(resolve, latency));
    return new Response(JSON.stringify(body), {
      headers: { 'Content-Type': 'application/json' },
    });
  };
  return { urls, fetch: fetch as typeof globalThis.fetch };
}

/** Subscribes one reader of `get({ id: '1' })` for `span` ms and returns what it saw last. */
async function readFor(controller: Controller, span: number) {
  const observer = controller.observe(MenuResource.get, { id: '1' });
  const stop = observer.subscribe(() => {});
  await new Promise((resolve) => setTimeout(resolve, span));
  const result = observer.result;
  stop();
  controller.dispose();
  return result;
}

describe('a reference to an entity the store does not hold', () => {
  for (const latency of [0, 10]) {
    it(`sends one request in 300 ms and shows the field as undefined (latency ${latency} ms)`, async () => {
      const server = countingFetch({ id: '1', food: '2' }, latency);
      const controller = new Controller({ fetch: server.fetch });
      const result = await readFor(controller, 300);
      assert.deepEqual(server.urls, [`${prefix}/menus/1`]);
      assert.equal(result.status, ReadStatus.Complete);
      assert.ok(result.data instanceof Menu);
      assert.equal(result.data.id, '1');
      assert.equal(result.data.food, undefined);
    });
  }

  it('controller.fetch resolves with the entity, its missing field undefined', async () => {
    const server = countingFetch({ id: '1', food: '2' }, 0);
    const controller = new Controller({ fetch: server.fetch });
    const menu = (await controller.fetch(MenuResource.get, { id: '1' })) as Menu;
    assert.ok(menu instanceof Menu);
    assert.equal(menu.food, undefined);
    assert.equal(
      controller.getResponse(MenuResource.get, { id: '1' }).expiryStatus,
      ExpiryStatus.Valid,
    );
    controller.dispose();
  });

  it('shows the entity once it arrives, in the same field', async () => {
    const server = countingFetch({ id: '1', food: '2' }, 0);
    const controller = new Controller({ fetch: server.fetch });
    await controller.fetch(MenuResource.get, { id: '1' });
    controller.setResponse(FoodResource.get, { id: '2' }, { id: '2', name: 'soup' });
    const menu = controller.getResponse(MenuResource.get, { id: '1' }).data as Menu;
    assert.equal(menu.food.name, 'soup');
    controller.dispose();
  });
});

describe('a required entity that is INVALID', () => {
  it('makes the response invalid, so a reader fetches it again', async () => {
    const server = countingFetch({ id: '1', food: { id: '2', name: 'soup' } }, 0);
    const controller = new Controller({ fetch: server.fetch });
    await controller.fetch(MenuResource.get, { id: '1' });
    controller.invalidate(Food, '2');
    assert.equal(
      controller.getResponse(MenuResource.get, { id: '1' }).expiryStatus,
      ExpiryStatus.Invalid,
    );
    // Its answer brings the food again: valid.
    const menu = (await controller.fetch(MenuResource.get, { id: '1' })) as Menu;
    assert.equal(menu.food.name, 'soup');
    controller.dispose();
  });

  it('still INVALID after the answer is an error naming the field, not another request', async () => {
    const server = countingFetch({ id: '1', food: '2' }, 0);
    const controller = new Controller({ fetch: server.fetch });
    controller.setResponse(FoodResource.get, { id: '2' }, { id: '2', name: 'soup' });
    controller.invalidate(Food, '2');
    await assert.rejects(controller.fetch(MenuResource.get, { id: '1' }), {
      message: `GET ${prefix}/menus/1 answered, but Menu.food is INVALID`,
    });
    const result = await readFor(controller, 300);
    assert.equal(server.urls.length, 1, 'the reader shows the stored error and sends nothing');
    assert.equal(result.status, ReadStatus.Error);
    assert.match(String((result.error as Error).message), /Menu\.food/);
  });
});
