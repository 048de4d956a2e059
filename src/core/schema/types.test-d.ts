// Type tests: what each schema denormalizes to.
import type { Denormalize } from './types.js';
import type { Equal, Expect } from '../test-utils/type-assert.js';
import * as schema from './namespace.js';
import { Article, Todo, User, todoList } from '../test-utils/entities.js';

const page = { results: todoList, total: 0, next: '' };
// `[]` as a member is a default value (no member schema): the response's array, whatever it holds.
const tagged = { results: todoList, tags: [] };
const union = new schema.Union({ user: User, todo: Todo });

/**
 * A Todo as a read gives it: its assignee is an entity the store may not hold (the server sent a
 * pk alone), which reads as undefined, so the type says so beside the declared null.
 */
type TodoRead = Omit<Todo, 'assignee'> & { assignee: User | null | undefined };
/** An Article as read: its required author may be missing too; comments is a list (never undefined). */
type ArticleRead = Omit<Article, 'author'> & { author: User | undefined };

export type Cases = [
  Expect<Equal<Denormalize<typeof Todo>, TodoRead>>,
  Expect<Equal<Denormalize<typeof User>, User>>,
  Expect<Equal<Denormalize<[typeof Todo]>, TodoRead[]>>,
  Expect<Equal<Denormalize<(typeof Article)[]>, ArticleRead[]>>,
  Expect<Equal<Denormalize<typeof todoList>, TodoRead[]>>,
  Expect<Equal<Denormalize<typeof todoList.push>, TodoRead>>,
  Expect<Equal<Denormalize<typeof todoList.unshift>, TodoRead>>,
  Expect<Equal<Denormalize<schema.Invalidate<typeof Todo>>, TodoRead>>,
  Expect<Equal<Denormalize<schema.Array<typeof User>>, User[]>>,
  Expect<Equal<Denormalize<schema.Values<typeof User>>, Record<string, User>>>,
  Expect<Equal<Denormalize<typeof union>, User | TodoRead>>,
  Expect<Equal<Denormalize<typeof page>, { results: TodoRead[]; total: number; next: string }>>,
  Expect<Equal<Denormalize<typeof tagged>['tags'], unknown[]>>,
  Expect<Equal<Denormalize<typeof tagged>['results'], TodoRead[]>>,
  Expect<Equal<Denormalize<[]>, unknown[]>>,
  Expect<
    Equal<Denormalize<schema.Object<{ user: typeof User; n: number }>>, { user: User; n: number }>
  >,
];

// @ts-expect-error a Todo list is not a User list
export const wrong: Expect<Equal<Denormalize<typeof todoList>, User[]>> = true;

// A read of `tags: []` holds whatever the response's array held.
export const tags: Denormalize<typeof tagged>['tags'] = ['a', 1];

// A nested entity field reads as possibly missing: reading through it needs a check.
declare const article: Denormalize<typeof Article>;
// @ts-expect-error the author may be missing from the store
export const authorName: string = article.author.name;
export const authorNameChecked: string | undefined = article.author?.name;
// The other fields, and the instance's methods, are as the class declares them.
export const articleTitle: string = article.title;
export const articlePk: string = article.pk();
export const commentCount: number = article.comments.length;
