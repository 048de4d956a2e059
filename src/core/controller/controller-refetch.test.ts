// Controller.refetch(): a new request even when an identical one is in flight. An observer's
// refetch() (what ResourceController.refetch runs) joins it instead, unless the read was
// invalidated since it was sent.
import { describe, it } from 'node:test';
import { strict as assert } from 'node:assert';
import { Entity } from '../schema/entity.js';
import { createResource } from '../rest/create-resource.js';
import { RestEndpoint } from '../rest/rest-endpoint.js';
import { ValuesSchema as Values } from '../schema/values.js';
import { flush } from './test-utils/fake-fetch.js';
import { failOnUnhandledRejection, setup } from './test-utils/harness.js';

failOnUnhandledRejection();

class Profile extends Entity {
  id = '';
  name = '';
  pk() {
    return this.id;
  }
  static key = 'Profile';
}

const prefix = 'https://api.test';
const ProfileResource = createResource({
  urlPrefix: prefix,
  path: '/profiles/:id',
  schema: Profile,
});

describe('Controller.refetch', () => {
  it('sends a second request while the first is in flight; fetch would have joined it', async () => {
    const { controller, server } = setup();
    const first = controller.fetch(ProfileResource.get, { id: 1 });
    const joined = controller.fetch(ProfileResource.get, { id: 1 });
    await flush();
    assert.equal(server.calls.length, 1);
    const forced = controller.refetch(ProfileResource.get, { id: 1 });
    await flush();
    assert.equal(server.calls.length, 2);
    // The newer request answers first; the older answer, arriving after it, is dropped.
    const older = server.take(`GET ${prefix}/profiles/1`);
    const newer = server.take(`GET ${prefix}/profiles/1`);
    newer.respond(200, { id: '1', name: 'new' });
    assert.equal(((await forced) as Profile).name, 'new');
    older.respond(200, { id: '1', name: 'old' });
    await Promise.all([first, joined]);
    assert.equal(
      (controller.getResponse(ProfileResource.get, { id: 1 }).data as Profile).name,
      'new',
    );
  });
});

describe('ResponseObserver.refetch', () => {
  it('joins an identical read in flight: one request, and every caller gets the same data', async () => {
    const { controller, server } = setup();
    const observer = controller.observe(ProfileResource.get, { id: 1 });
    const stop = observer.subscribe(() => {});
    await flush();
    assert.equal(server.calls.length, 1, 'the observer asked for its read');
    const fetched = controller.fetch(ProfileResource.get, { id: 1 });
    const refetched = observer.refetch();
    await flush();
    assert.equal(server.calls.length, 1, 'refetch() joined the read in flight');
    server.take(`GET ${prefix}/profiles/1`).respond(200, { id: '1', name: 'a' });
    await refetched;
    const value = (await fetched) as Profile;
    assert.equal(value.name, 'a');
    assert.equal(observer.result.data, value);
    stop();
  });

  it('after invalidate(), sends the read again, and the answer of the one in flight is dropped', async () => {
    const { controller, server } = setup();
    const observer = controller.observe(ProfileResource.get, { id: 1 });
    const stop = observer.subscribe(() => {});
    // An awaited read in flight (sent with an old token, say), and nothing stored yet.
    const old = controller.fetch(ProfileResource.get, { id: 1 });
    await flush();
    assert.equal(server.calls.length, 1);
    controller.invalidate(ProfileResource.get, { id: 1 });
    const refetched = observer.refetch();
    await flush();
    assert.equal(server.calls.length, 2, 'not joined to the read from before the invalidation');
    server.take(`GET ${prefix}/profiles/1`).respond(200, { id: '1', name: 'old' });
    await old;
    assert.equal(observer.result.status, 'pending', 'the older answer is not shown');
    server.take(`GET ${prefix}/profiles/1`).respond(200, { id: '1', name: 'new' });
    await refetched;
    assert.equal((observer.result.data as Profile).name, 'new');
    stop();
  });
});

describe('Controller.invalidate and reads in flight', () => {
  const states = {
    'nothing stored yet': () => {},
    'a response stored': (controller: ReturnType<typeof setup>['controller']) =>
      controller.setResponse(ProfileResource.get, { id: 1 }, { id: '1', name: 'stored' }),
    'a response invalidated already': (controller: ReturnType<typeof setup>['controller']) => {
      controller.setResponse(ProfileResource.get, { id: 1 }, { id: '1', name: 'stored' });
      controller.invalidate(ProfileResource.get, { id: 1 });
    },
  };
  for (const [name, arrange] of Object.entries(states)) {
    it(`drops the answer of a read in flight and is not joined (${name})`, async () => {
      const { controller, server } = setup();
      arrange(controller);
      const old = controller.fetch(ProfileResource.get, { id: 1 });
      await flush();
      controller.invalidate(ProfileResource.get, { id: 1 });
      const fresh = controller.fetch(ProfileResource.get, { id: 1 });
      await flush();
      assert.equal(server.calls.length, 2);
      server.take(`GET ${prefix}/profiles/1`).respond(200, { id: '1', name: 'old' });
      await old;
      assert.notEqual(
        (controller.getResponse(ProfileResource.get, { id: 1 }).data as Profile | undefined)?.name,
        'old',
      );
      server.take(`GET ${prefix}/profiles/1`).respond(200, { id: '1', name: 'new' });
      assert.equal(((await fresh) as Profile).name, 'new');
      assert.equal(
        (controller.getResponse(ProfileResource.get, { id: 1 }).data as Profile).name,
        'new',
      );
    });
  }
});

describe('an answer the same as the stored one', () => {
  const shapes = {
    'a plain array': {
      schema: [Profile],
      body: [{ id: '1', name: 'a' }],
      changed: [{ id: '2', name: 'b' }],
    },
    'an object around an array': {
      schema: { results: [Profile], next: '' },
      body: { results: [{ id: '1', name: 'a' }], next: '?page=2' },
      changed: { results: [{ id: '1', name: 'a' }], next: '?page=3' },
    },
    'a Values map': {
      schema: new Values(Profile),
      body: { a: { id: '1', name: 'a' } },
      changed: { a: { id: '1', name: 'a' }, b: { id: '2', name: 'b' } },
    },
    'no schema': {
      schema: undefined,
      body: { rows: [1, 2, 3], total: 3 },
      changed: { rows: [1, 2, 3], total: 4 },
    },
  };
  for (const [name, { schema, body, changed }] of Object.entries(shapes)) {
    it(`keeps the value read (${name}): nothing that shows it renders again`, async () => {
      const { controller, server } = setup();
      const endpoint = new RestEndpoint({ urlPrefix: prefix, path: '/shapes', schema });
      const answer = async (response: unknown) => {
        const done = controller.refetch(endpoint, {});
        await flush();
        server.take(`GET ${prefix}/shapes`).respond(200, response);
        await done;
        return controller.getResponse(endpoint, {}).data;
      };
      const first = await answer(body);
      assert.equal(await answer(structuredClone(body)), first);
      // A different answer does change it.
      const other = await answer(changed);
      assert.notEqual(other, first);
    });
  }

  it('is told apart by value when process() makes Dates: a later date is not taken for the same', async () => {
    class Event extends Entity {
      id = '';
      when: Date | null = null;
      pk() {
        return this.id;
      }
      static key = 'Event';
    }
    let day = 1;
    const endpoint = new RestEndpoint({
      urlPrefix: prefix,
      path: '/event',
      schema: Event,
      process: (value: object) => ({ ...value, when: new Date(Date.UTC(2026, 0, day++)) }),
    });
    const { controller, server } = setup();
    for (const expected of ['2026-01-01', '2026-01-02']) {
      const done = controller.refetch(endpoint, {});
      await flush();
      server.take(`GET ${prefix}/event`).respond(200, { id: '1' });
      await done;
      const when = (controller.getResponse(endpoint, {}).data as Event).when!;
      assert.equal(when.toISOString().slice(0, 10), expected);
    }
  });
});

describe('an answer compared with the stored one', () => {
  it('that links back to itself (a tree with parent links, no schema) is stored again, not a stack overflow', async () => {
    interface Node {
      name: string;
      children: Node[];
      parent?: Node;
    }
    const link = (node: Node): Node => {
      for (const child of node.children) {
        child.parent = node;
        link(child);
      }
      return node;
    };
    const endpoint = new RestEndpoint({
      urlPrefix: prefix,
      path: '/tree',
      process: (value: Node) => link(value),
    });
    const { controller, server } = setup({ retry: 0 });
    for (const name of ['root', 'root']) {
      const done = controller.refetch(endpoint, {});
      await flush();
      server
        .take(`GET ${prefix}/tree`)
        .respond(200, { name, children: [{ name: 'leaf', children: [] }] });
      const tree = (await done) as Node;
      assert.equal(tree.children[0]!.parent, tree);
      assert.equal(controller.getResponse(endpoint, {}).error, undefined);
    }
  });
});
