// Polymorphic (schema.Union) and map-shaped (schema.Values) reads through the Controller's whole
// lifecycle: reads served from the store, garbage collection, optimistic updates.
import { describe, it } from 'node:test';
import { strict as assert } from 'node:assert';
import { Entity } from '../schema/entity.js';
import { UnionSchema } from '../schema/union.js';
import { ValuesSchema } from '../schema/values.js';
import { ExpiryStatus } from '../protocol/types.js';
import { createResource } from '../rest/create-resource.js';
import { dehydrate, hydrate } from '../hydration.js';
import { fakeEndpoint } from './test-utils/fake-endpoint.js';
import { flush } from './test-utils/fake-fetch.js';
import { failOnUnhandledRejection, setup } from './test-utils/harness.js';

failOnUnhandledRejection();

class User extends Entity {
  id = '';
  type = 'user';
  name = '';
  pk() {
    return this.id;
  }
  static override key = 'User';
}

class Group extends Entity {
  id = '';
  type = 'group';
  title = '';
  pk() {
    return this.id;
  }
  static override key = 'Group';
}

const member = new UnionSchema({ user: User, group: Group }, 'type');
const MemberResource = createResource({
  path: '/members/:type/:id',
  schema: member,
  optimistic: true,
});

describe('Controller with a schema.Union', () => {
  it('a type function written for response data does not break reads or gc when it throws on URL params', () => {
    // Written for the server's data ({ meta: { kind } }); the URL params of a get have no meta.
    const member = new UnionSchema(
      { user: User, group: Group },
      (input) => (input.meta as { kind: string }).kind,
    );
    const { controller, clock } = setup({ gcTime: 1_000 });
    const get = fakeEndpoint({ path: '/members/:id', schema: member });
    const getUsers = fakeEndpoint({ path: '/users', schema: [User] });
    const stop = controller.subscribe(get, { id: '1' });
    controller.setResponse(getUsers, {}, [{ id: '1' }]);
    clock.advance(1_000);
    assert.deepEqual(controller.getState().endpoints, {}, 'the unused list was collected');
    assert.deepEqual(controller.getState().entities, {});
    const read = controller.getResponse(get, { id: '1' });
    assert.equal(read.data, undefined);
    assert.equal(read.expiryStatus, ExpiryStatus.Invalid, 'nothing to show: it must be fetched');
    stop();
  });

  it('an optimistic partialUpdate merges into the stored member, and applies nothing without one', async () => {
    const { controller, server } = setup();
    controller.setResponse(MemberResource.getList, { type: 'user' }, [
      { id: '1', type: 'user', name: 'Ann' },
    ]);
    const renamed = controller.fetch(
      MemberResource.partialUpdate,
      { id: '1', type: 'user' },
      { name: 'Anna' },
    );
    const shown = controller.getResponse(MemberResource.get, { id: '1', type: 'user' }).data;
    assert.ok(shown instanceof User);
    assert.deepEqual({ ...shown }, { id: '1', type: 'user', name: 'Anna' });
    // Not stored: the body alone would show a half-empty record.
    const stray = controller.fetch(
      MemberResource.partialUpdate,
      { id: '7', type: 'group' },
      { title: 'Half' },
    );
    const missing = controller.getResponse(MemberResource.get, { id: '7', type: 'group' });
    assert.equal(missing.data, undefined, 'no group 7 is shown');
    assert.equal(missing.expiryStatus, ExpiryStatus.Invalid);
    await flush();
    server.take('PATCH /members/user/1').respond(200, { id: '1', type: 'user', name: 'Anna' });
    server.take('PATCH /members/group/7').respond(500, {});
    await renamed;
    await assert.rejects(stray);
    assert.equal(controller.getState().entities.Group, undefined, 'the failed one left nothing');
  });

  it('an optimistic create into a list of a Union shows at once, until the server gives its id', async (t) => {
    const { controller, server } = setup();
    const reported = t.mock.method(console, 'error', () => {});
    controller.setResponse(MemberResource.getList, { type: 'group' }, [
      { id: '1', type: 'group', title: 'Admins' },
    ]);
    const titles = () =>
      (controller.getResponse(MemberResource.getList, { type: 'group' }).data as Group[]).map(
        (group) => group.title,
      );
    const created = controller.fetch(
      MemberResource.getList.push,
      { type: 'group' },
      { type: 'group', title: 'Editors' },
    );
    assert.deepEqual(titles(), ['Admins', 'Editors']);
    assert.equal(reported.mock.callCount(), 0, 'nothing reported');
    await flush();
    server.take('POST /members/group').respond(201, { id: '2', type: 'group', title: 'Editors' });
    assert.ok((await created) instanceof Group);
    assert.deepEqual(titles(), ['Admins', 'Editors']);
    assert.deepEqual(Object.keys(controller.getState().entities.Group!), ['1', '2']);
  });
});

describe('a Union whose member is missing from the store', () => {
  class Post extends Entity {
    id = '';
    owner = User.fromJS();
    reviewer: User | null = null;
    pk() {
      return this.id;
    }
    static override key = 'Post';
    static override schema = { owner: member, reviewer: member };
  }
  const getPost = fakeEndpoint({ path: '/posts/:id', schema: Post });
  const getMember = fakeEndpoint({ path: '/members/:id', schema: member });

  /** A restored state (a cache, a server's state script) that has the responses, not User 1. */
  function restoredWithoutUser1() {
    const source = setup();
    source.controller.setResponse(getMember, { id: '1' }, { id: '1', type: 'user', name: 'A' });
    source.controller.setResponse(
      getPost,
      { id: 'p' },
      {
        id: 'p',
        owner: { id: '1', type: 'user', name: 'A' },
        reviewer: { id: '2', type: 'user', name: 'B' },
      },
    );
    source.controller.setResponse(
      getPost,
      { id: 'q' },
      {
        id: 'q',
        owner: { id: '2', type: 'user', name: 'B' },
        reviewer: { id: '1', type: 'user', name: 'A' },
      },
    );
    const state = JSON.parse(JSON.stringify(dehydrate(source.controller)));
    delete state.entities.User['1'];
    delete state.entitiesMeta.User['1'];
    const { controller } = setup();
    hydrate(controller, state);
    return controller;
  }

  it('at the top, the read is invalid (fetched again), as for an Entity', () => {
    const read = restoredWithoutUser1().getResponse(getMember, { id: '1' });
    assert.equal(read.data, undefined);
    assert.equal(read.expiryStatus, ExpiryStatus.Invalid);
  });

  it('in a field, required or optional, it reads as undefined (missing is not INVALID)', () => {
    const controller = restoredWithoutUser1();
    const p = controller.getResponse(getPost, { id: 'p' });
    assert.equal(p.expiryStatus, ExpiryStatus.Valid);
    assert.equal(p.data?.owner, undefined);
    assert.equal(p.data?.reviewer.name, 'B');
    const q = controller.getResponse(getPost, { id: 'q' });
    assert.equal(q.expiryStatus, ExpiryStatus.Valid);
    assert.equal(q.data?.owner.name, 'B');
    assert.equal(q.data?.reviewer, undefined);
  });
});

describe('Controller with schema.Values', () => {
  it('a change to one member gives new objects only along its path: sibling maps and lists keep theirs', () => {
    const { controller } = setup();
    const getBoard = fakeEndpoint({
      path: '/board',
      schema: {
        pinned: new ValuesSchema(member),
        recent: [member],
        teams: new ValuesSchema([member]),
      },
    });
    controller.setResponse(
      getBoard,
      {},
      {
        pinned: { top: { id: '1', type: 'user', name: 'Ann' } },
        recent: [
          { id: '1', type: 'group', title: 'Admins' },
          { id: '2', type: 'user', name: 'Bob' },
        ],
        teams: { red: [{ id: '3', type: 'user', name: 'Cy' }], blue: [] },
      },
    );
    type Board = {
      pinned: Record<string, User | Group>;
      recent: (User | Group)[];
      teams: Record<string, (User | Group)[]>;
    };
    const read = () => controller.getResponse(getBoard, {}).data as Board;
    const before = read();
    controller.set(member, { id: '2', type: 'user', name: 'Bobby' });
    const after = read();
    assert.notEqual(after, before);
    assert.notEqual(after.recent, before.recent, 'the list holds user 2');
    assert.equal((after.recent[1] as User).name, 'Bobby');
    assert.equal(after.recent[0], before.recent[0], 'group 1 is unchanged');
    assert.equal(after.pinned, before.pinned, 'the pinned map does not hold user 2');
    assert.equal(after.teams, before.teams, 'nor do the teams');
    controller.set(User, { id: '3', type: 'user', name: 'Cyd' });
    const last = read();
    assert.notEqual(last.teams, after.teams);
    assert.notEqual(last.teams.red, after.teams.red);
    assert.equal(last.teams.blue, after.teams.blue, 'the blue team does not hold user 3');
    assert.equal(last.pinned, before.pinned);
    assert.equal(last.recent, after.recent);
  });
});
