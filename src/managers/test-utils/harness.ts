// Shared by the managers' Node tests: an entity, its resource against a fake server, a controller
// on fake time, and a captured console.error.
import { mock } from 'node:test';
import { Entity, createResource } from '../../core/index.js';
import type { ControllerOptions } from '../../core/index.js';
import type { PersistStorage } from '../storage.js';
import { setup } from '../../core/controller/test-utils/harness.js';
import { flush } from '../../core/controller/test-utils/fake-fetch.js';

export { flush };

export class Item extends Entity {
  id = '';
  name = '';
  pk() {
    return this.id;
  }
  static key = 'Item';
}

export const prefix = 'https://api.test';
export const ItemResource = createResource({ urlPrefix: prefix, path: '/items/:id', schema: Item });

/** A controller (fake time and server) whose store holds items 1 and 2, from list and get reads. */
export async function loaded(options: Partial<ControllerOptions> = {}) {
  const harness = setup(options);
  const { controller, server } = harness;
  const list = controller.fetch(ItemResource.getList, {});
  const one = controller.fetch(ItemResource.get, { id: '1' });
  await flush();
  server.take(`GET ${prefix}/items`).respond(200, [
    { id: '1', name: 'one' },
    { id: '2', name: 'two' },
  ]);
  server.take(`GET ${prefix}/items/1`).respond(200, { id: '1', name: 'one' });
  await Promise.all([list, one]);
  return harness;
}

/** The names the list shows. */
export function names(controller: ReturnType<typeof setup>['controller']): string[] {
  const list = controller.getResponse(ItemResource.getList, {}).data as Item[] | undefined;
  return (list ?? []).map((item) => item.name);
}

/** Replaces console.error while `work` runs; gives what it was called with. */
export async function consoleErrors(work: () => unknown): Promise<unknown[][]> {
  const spy = mock.method(console, 'error', () => {});
  try {
    await work();
    return spy.mock.calls.map((call) => call.arguments);
  } finally {
    spy.mock.restore();
  }
}

/** A storage in memory that copies like IndexedDB does, counts writes and can be made to fail. */
export function memoryStorage() {
  const data = new Map<string, unknown>();
  const storage = {
    data,
    sets: 0,
    fail: undefined as Error | undefined,
    get: async (name: string) => {
      if (storage.fail) throw storage.fail;
      return structuredClone(data.get(name));
    },
    set: async (name: string, value: unknown) => {
      storage.sets++;
      if (storage.fail) throw storage.fail;
      data.set(name, structuredClone(value));
    },
    delete: async (name: string) => void data.delete(name),
  } satisfies PersistStorage & Record<string, unknown>;
  return storage;
}
