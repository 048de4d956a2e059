import { describe, it } from 'node:test';
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { Entity } from './entity.js';
import { normalize } from '../normalize/normalize.js';
import { denormalize } from '../normalize/denormalizer.js';
import { Todo, User } from '../test-utils/entities.js';

describe('Entity', () => {
  it('fromJS fills defaults and overrides them with props', () => {
    const todo = Todo.fromJS({ id: '1', title: 'milk' });
    assert.ok(todo instanceof Todo);
    assert.equal(todo.title, 'milk');
    assert.equal(todo.completed, false);
    assert.equal(todo.pk(), '1');
  });

  it('fromJS keeps a __proto__ prop as data', () => {
    const todo = Todo.fromJS(JSON.parse('{"id":"1","__proto__":{"evil":true}}'));
    assert.ok(todo instanceof Todo);
    assert.equal((todo as unknown as { evil?: boolean }).evil, undefined);
    assert.deepEqual(Object.getOwnPropertyDescriptor(todo, '__proto__')?.value, { evil: true });
  });

  it('a field the class computes (a getter only) stays computed when the data has it too', () => {
    // A server that also sends `fullName`: the class's getter wins, the other fields are kept,
    // in fromJS and in a read from the store (Object.assign alone would throw a bare TypeError).
    let titles = 0;
    class Person extends Entity {
      id = '';
      first = '';
      last = '';
      get fullName() {
        return `${this.first} ${this.last}`;
      }
      get title() {
        return this.first;
      }
      set title(value: string) {
        titles++;
        this.first = value;
      }
      pk() {
        return this.id;
      }
      static key = 'ComputedPerson';
    }
    const json = { id: '1', first: 'Ada', last: 'Lovelace', fullName: 'from the server' };
    const made = Person.fromJS(json);
    assert.equal(made.fullName, 'Ada Lovelace');
    assert.equal(made.last, 'Lovelace');
    const { result, entities } = normalize(Person, json);
    const read = denormalize(Person, result, entities) as Person;
    assert.ok(read instanceof Person);
    assert.equal(read.fullName, 'Ada Lovelace');
    assert.equal(read.id, '1');
    assert.equal(Object.getOwnPropertyDescriptor(read, 'fullName'), undefined);
    // A class's setter still runs, and one that throws still throws.
    assert.equal(Person.fromJS({ id: '2', title: 'Grace' }).first, 'Grace');
    assert.ok(titles > 0);
    class Strict extends Person {
      set nickname(_value: string) {
        throw new RangeError('nickname is not taken');
      }
    }
    assert.throws(() => Strict.fromJS({ id: '3', fullName: 'x', nickname: 'y' }), RangeError);
  });

  it('a setter of the class runs once per instance when the data also has a computed field', () => {
    // The server sends `tags` (taken by the class's setter) before `count` (a getter only): the
    // setter must see each value once, in fromJS and in a read from the store.
    class Tagged extends Entity {
      id = '';
      seen: string[] = [];
      set tags(value: string[]) {
        this.seen.push(...value);
      }
      get tags(): string[] {
        return this.seen;
      }
      get count() {
        return this.seen.length;
      }
      pk() {
        return this.id;
      }
      static key = 'TaggedOnce';
    }
    const json = { id: '1', tags: ['a', 'b'], count: 99 };
    const made = Tagged.fromJS(json);
    assert.deepEqual(made.seen, ['a', 'b']);
    assert.equal(made.count, 2);
    const { result, entities } = normalize(Tagged, json);
    const read = denormalize(Tagged, result, entities) as Tagged;
    assert.deepEqual(read.seen, ['a', 'b']);
    assert.equal(read.count, 2);
  });

  it('static pk computes the pk from plain props', () => {
    assert.equal(Todo.pk({ id: 7 }), 7);
  });

  it('a missing pk is a clear error naming the class and showing the input', () => {
    assert.throws(
      () => normalize(Todo, { title: 'no id here' }),
      (error: Error) =>
        /Entity Todo has no pk\(\): got undefined from \{"title":"no id here"\}/.test(
          error.message,
        ) && /at the response/.test(error.message),
    );
  });

  it('static key defaults to the class name, with a warning about minifiers', () => {
    class Nameless extends Entity {
      id = '';
      pk() {
        return this.id;
      }
    }
    const warnings: string[] = [];
    const original = console.warn;
    console.warn = (message: string) => warnings.push(message);
    try {
      assert.equal(Nameless.key, 'Nameless');
      assert.equal(Nameless.key, 'Nameless');
    } finally {
      console.warn = original;
    }
    assert.equal(warnings.length, 1, 'warns once per class');
    assert.match(warnings[0]!, /Entity Nameless has no static key.*minifiers/);
  });

  it('a class without a name and without static key is an error, not the key ""', () => {
    const Anonymous = (() =>
      class extends Entity {
        slug = '';
        pk() {
          return this.slug;
        }
      })();
    assert.equal(Anonymous.name, '');
    assert.throws(
      () => Anonymous.key,
      (error: Error) =>
        error instanceof TypeError &&
        /named "" in this build, fields slug\) has no static key/.test(error.message) &&
        /static key = /.test(error.message),
    );
  });

  it('in production a missing static key throws instead of using the (minifiable) class name', () => {
    // Run as an app would in production: a fresh process that starts with NODE_ENV=production.
    const script = [
      "import { Entity } from 'resource-elements/core';",
      'class Todo extends Entity { id = ""; title = ""; pk() { return this.id; } }',
      'try { console.log("key:" + Todo.key); } catch (error) { console.log(error.message); }',
    ].join('\n');
    const result = spawnSync(
      process.execPath,
      [
        '--conditions=resource-elements-source',
        '--import',
        'tsx',
        '--input-type=module',
        '-e',
        script,
      ],
      { env: { ...process.env, NODE_ENV: 'production' }, encoding: 'utf8' },
    );
    assert.equal(result.status, 0, result.stderr);
    assert.match(
      result.stdout,
      /^An Entity class \(named "Todo" in this build, fields id, title\) has no static key/,
    );
    assert.equal(result.stderr.includes('has no static key, so its class name is used'), false);
  });

  it('static key set on a subclass does not warn', () => {
    const original = console.warn;
    let warned = false;
    console.warn = () => (warned = true);
    try {
      assert.equal(Todo.key, 'Todo');
    } finally {
      console.warn = original;
    }
    assert.equal(warned, false);
  });

  it('process shapes what is stored', () => {
    class Trimmed extends Entity {
      id = '';
      title = '';
      pk() {
        return this.id;
      }
      static key = 'Trimmed';
      static process(input: Record<string, unknown>) {
        return { ...input, title: String(input.title).trim() };
      }
    }
    const { entities } = normalize(Trimmed, { id: '1', title: '  hi  ' });
    assert.deepEqual(entities.Trimmed!['1'], { id: '1', title: 'hi' });
  });

  it('validate rejects input with its message, the entity and where it was', () => {
    class Strict extends Entity {
      id = '';
      pk() {
        return this.id;
      }
      static key = 'Strict';
      static validate(props: Record<string, unknown>) {
        return typeof props.id === 'string' ? undefined : 'id must be a string';
      }
    }
    assert.throws(
      () => normalize([Strict], [{ id: 'a' }, { id: 2 }]),
      /Entity Strict is invalid: id must be a string at response\[1\]/,
    );
  });

  it('merge decides how the same pk combines', () => {
    class Tagged extends Entity {
      id = '';
      tags: string[] = [];
      pk() {
        return this.id;
      }
      static key = 'Tagged';
      static merge(existing: Record<string, unknown>, incoming: Record<string, unknown>) {
        return {
          ...existing,
          ...incoming,
          tags: [...(existing.tags as string[]), ...(incoming.tags as string[])],
        };
      }
    }
    const { entities } = normalize(
      [Tagged],
      [
        { id: '1', tags: ['a'] },
        { id: '1', tags: ['b'] },
      ],
    );
    assert.deepEqual(entities.Tagged!['1'], { id: '1', tags: ['a', 'b'] });
  });

  it('denormalizes to instances with methods', () => {
    const { result, entities } = normalize(User, { id: 'u1', name: 'Ann' });
    const user = denormalize(User, result, entities) as User;
    assert.ok(user instanceof User);
    assert.equal(user.pk(), 'u1');
    assert.deepEqual(user.friends, []);
  });
});
