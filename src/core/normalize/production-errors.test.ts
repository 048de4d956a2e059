import { describe, it } from 'node:test';
import { strict as assert } from 'node:assert';
import { normalize } from './normalize.js';
import { Entity } from '../schema/entity.js';
import { Collection } from '../schema/collection.js';
import { Invalidate } from '../schema/invalidate.js';
import { UnionSchema } from '../schema/union.js';
import { Todo, User } from '../test-utils/entities.js';

// What plain JavaScript can write and TypeScript refuses: an entity class with no pk().
abstract class NoPk extends Entity {
  static override key = 'NoPk';
}

/** The message each of `makers` throws, with NODE_ENV set to `env` while they run. */
function messagesIn(env: string, makers: (() => unknown)[]): string[] {
  const saved = process.env.NODE_ENV;
  process.env.NODE_ENV = env;
  try {
    return makers.map((make) => {
      try {
        make();
        return 'no error';
      } catch (error) {
        return (error as Error).message;
      }
    });
  } finally {
    process.env.NODE_ENV = saved;
  }
}

const makers = [
  // Bad server data: an entity without the field its pk() reads.
  () => normalize({ items: [Todo] }, { items: [{ title: 'a' }] }),
  // Bad server data: an Invalidate of a Union given an object that names no member.
  () =>
    normalize([new Invalidate(new UnionSchema({ todo: Todo, user: User }, 'kind'))], [{ id: 1 }]),
  // The programmer's mistakes: an Entity class without pk(), a Collection of no member.
  () => NoPk.pk({ id: 1 }),
  () => new Collection([] as never),
];

describe('Schema and normalize errors in a production build', () => {
  it('keep the facts (entity, path, value) and leave the advice to development', () => {
    assert.deepEqual(messagesIn('production', makers), [
      'Entity Todo has no pk(): got undefined from {"title":"a"} at response.items[0]',
      'Invalidate(Todo|User) cannot tell which of todo, user {"id":1} is at response[0]',
      'Entity NoPk has no pk() method',
      'schema.Collection takes a one-member array',
    ]);
  });

  it('give the advice in development', () => {
    assert.deepEqual(messagesIn('development', makers), [
      'Entity Todo has no pk(): got undefined from {"title":"a"}. Define pk() or give the field it reads at response.items[0]',
      'Invalidate(Todo|User) cannot tell which of todo, user {"id":1} is: give an object with its "kind" field, e.g. { id, kind } at response[0]',
      'Entity NoPk has no pk() method: add pk() { return this.id; }',
      'schema.Collection takes a one-member array, e.g. new schema.Collection([Todo])',
    ]);
  });
});
