// Type tests: what each schema denormalizes to.
import type { Denormalize } from './types.js';
import type { Equal, Expect } from '../test-utils/type-assert.js';
import * as schema from './namespace.js';
import { Article, Todo, User, todoList } from '../test-utils/entities.js';

const page = { results: todoList, total: 0, next: '' };
// `[]` as a member is a default value (no member schema): the response's array, whatever it holds.
const tagged = { results: todoList, tags: [] };
const union = new schema.Union({ user: User, todo: Todo });

export type Cases = [
  Expect<Equal<Denormalize<typeof Todo>, Todo>>,
  Expect<Equal<Denormalize<[typeof Todo]>, Todo[]>>,
  Expect<Equal<Denormalize<(typeof Article)[]>, Article[]>>,
  Expect<Equal<Denormalize<typeof todoList>, Todo[]>>,
  Expect<Equal<Denormalize<typeof todoList.push>, Todo>>,
  Expect<Equal<Denormalize<typeof todoList.unshift>, Todo>>,
  Expect<Equal<Denormalize<schema.Invalidate<typeof Todo>>, Todo>>,
  Expect<Equal<Denormalize<schema.Array<typeof User>>, User[]>>,
  Expect<Equal<Denormalize<schema.Values<typeof User>>, Record<string, User>>>,
  Expect<Equal<Denormalize<typeof union>, User | Todo>>,
  Expect<Equal<Denormalize<typeof page>, { results: Todo[]; total: number; next: string }>>,
  Expect<Equal<Denormalize<typeof tagged>['tags'], unknown[]>>,
  Expect<Equal<Denormalize<typeof tagged>['results'], Todo[]>>,
  Expect<Equal<Denormalize<[]>, unknown[]>>,
  Expect<
    Equal<Denormalize<schema.Object<{ user: typeof User; n: number }>>, { user: User; n: number }>
  >,
];

// @ts-expect-error a Todo list is not a User list
export const wrong: Expect<Equal<Denormalize<typeof todoList>, User[]>> = true;

// A read of `tags: []` holds whatever the response's array held.
export const tags: Denormalize<typeof tagged>['tags'] = ['a', 1];
