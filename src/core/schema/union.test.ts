// schema.Union: which member a value is, and what a type field may not name.
import { describe, it } from 'node:test';
import { strict as assert } from 'node:assert';
import { Controller } from '../controller/controller.js';
import { RestEndpoint } from '../rest/rest-endpoint.js';
import { fakeFetch, json } from '../rest/test-utils/fake-fetch.js';
import { normalize } from '../normalize/normalize.js';
import { Entity } from './entity.js';
import { ArraySchema } from './array.js';
import { ObjectSchema } from './object.js';
import { UnionSchema } from './union.js';

class User extends Entity {
  id = '';
  type = 'user';
  pk() {
    return this.id;
  }
  static override key = 'User';
}

class Group extends Entity {
  id = '';
  type = 'group';
  pk() {
    return this.id;
  }
  static override key = 'Group';
}

const member = new UnionSchema({ user: User, group: Group }, 'type');

describe('schema.Union type names', () => {
  for (const type of ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf']) {
    it(`refuses the whole response when a type field says "${type}", storing nothing`, async () => {
      const answer = [
        { id: '2', type: 'user' },
        JSON.parse(`{ "id": "3", "type": "${type}" }`) as object,
      ];
      const controller = new Controller({ fetch: fakeFetch(() => json(answer)).fetch });
      const list = new RestEndpoint({
        urlPrefix: 'https://api.test',
        path: '/members',
        schema: [member],
      });
      const get = new RestEndpoint({
        urlPrefix: 'https://api.test',
        path: '/members/:id',
        schema: member,
      });
      controller.setResponse(get, { id: '1' }, { id: '1', type: 'group' });
      const before = controller.getState().entities;
      await assert.rejects(controller.fetch(list), (error: Error) => {
        assert.match(error.message, new RegExp(`field "type" is "${type}"`));
        assert.match(error.message, /GET https:\/\/api\.test\/members/);
        return true;
      });
      assert.equal(controller.getState().entities, before);
      assert.deepEqual(Object.keys(controller.getState().entities), ['Group']);
      assert.equal(controller.getResponse(list).data, undefined);
    });
  }

  it('refuses such a name from a type function too, and keeps a member of that name', () => {
    const byFunction = new UnionSchema({ user: User }, () => 'constructor');
    assert.throws(
      () => byFunction.normalize({ id: '1' }, undefined, undefined, [], () => '1', {} as never),
      /Union schema attribute function is "constructor"/,
    );
    // A member the app named so is a member like any other.
    const own = new UnionSchema({ constructor: User } as Record<string, typeof User>, 'kind');
    const visit = (_schema: unknown, value: unknown) => (value as { id: string }).id;
    assert.deepEqual(
      own.normalize({ id: '1', kind: 'constructor' }, undefined, undefined, [], visit, {} as never),
      {
        id: '1',
        schema: 'constructor',
      },
    );
  });

  it('keeps a value of an ordinary unknown type as it is, with a warning', (t) => {
    const warn = t.mock.method(console, 'warn', () => {});
    const value = { id: '4', type: 'robot' };
    assert.equal(
      member.normalize(value, undefined, undefined, [], () => '4', {} as never),
      value,
    );
    assert.equal(warn.mock.callCount(), 1);
  });
});

describe('schema.Union schemaAttribute function', () => {
  it('gets the value, its parent and its key there, as the reference passes them', () => {
    const calls: unknown[][] = [];
    const owner = new UnionSchema({ user: User, group: Group }, (...args) => {
      // The parent as it is at the call (the object being normalized: the input's fields).
      const parent = args[1] as { title: string; owner: unknown };
      calls.push([args[0], { title: parent.title, owner: parent.owner }, args[2], args.length]);
      return args[0].kind as string;
    });
    const input = { title: 'Doc', owner: { id: '1', kind: 'group' } };
    const { result, entities } = normalize({ owner }, input);
    assert.deepEqual(calls, [[input.owner, input, 'owner', 3]]);
    assert.deepEqual(result, { title: 'Doc', owner: { id: '1', schema: 'group' } });
    assert.deepEqual(Object.keys(entities), ['Group']);
  });

  it('in an array, gets the parent and key of the array, not the index (as the reference)', () => {
    const calls: unknown[][] = [];
    const member = new UnionSchema({ user: User, group: Group }, (...args) => {
      // The parent as it is at the call: the object being normalized (its title), or the array.
      const parent = args[1] as { title?: string };
      calls.push([args[0].id, Array.isArray(parent) ? 'array' : parent.title, args[2]]);
      return args[0].kind as string;
    });
    const owners = [
      { id: '1', kind: 'user' },
      { id: '2', kind: 'group' },
    ];
    const nested = { title: 'Doc', owners };
    normalize({ owners: [member] }, nested);
    normalize({ owners: new ArraySchema(member) }, nested);
    assert.deepEqual(calls.splice(0), [
      ['1', 'Doc', 'owners'],
      ['2', 'Doc', 'owners'],
      ['1', 'Doc', 'owners'],
      ['2', 'Doc', 'owners'],
    ]);
    // The whole response an array: its members' parent is the response, and no key.
    normalize([member], owners);
    assert.deepEqual(calls, [
      ['1', 'array', undefined],
      ['2', 'array', undefined],
    ]);
  });

  it('choosing from URL params (a read served from the store), gets the params alone', () => {
    const calls: unknown[][] = [];
    const owner = new UnionSchema({ user: User, group: Group }, (...args) => {
      calls.push(args);
      return args[0].kind as string;
    });
    const params = { id: '1', kind: 'user' };
    assert.equal(owner.entityFor(params), User);
    assert.deepEqual(calls, [[params, undefined, undefined]]);
  });
});

describe('schema.Union members', () => {
  it('must be Entity classes: a schema.Object member is refused, naming it', () => {
    assert.throws(
      () => new UnionSchema({ user: User, note: new ObjectSchema({ author: User }) } as never),
      (error: Error) =>
        error instanceof TypeError &&
        /member "note" must be an Entity class/.test(error.message) &&
        /schema\.Object .*not supported/.test(error.message),
    );
  });
});
