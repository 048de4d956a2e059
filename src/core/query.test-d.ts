// Type tests: a query's params and data are those of its select, and a Controller reads it as an
// endpoint of those types.
import type { Equal, Expect } from './test-utils/type-assert.js';
import type { Resolved } from './protocol/types.js';
import type { Controller } from './controller/controller.js';
import { queryAll } from './query.js';
import { Todo } from './test-utils/entities.js';

const everyTodo = queryAll(Todo);
const byAuthor = queryAll(Todo, (todos, { authorId }: { authorId: string }) =>
  todos.filter((todo) => todo.assignee?.id === authorId),
);
const count = queryAll(Todo, (todos) => todos.length);
const maybe = queryAll(Todo, (todos, params?: { done?: boolean }) =>
  todos.filter((todo) => params?.done === undefined || todo.completed === params.done),
);

export type Cases = [
  Expect<Equal<Resolved<typeof everyTodo>, Todo[]>>,
  Expect<Equal<Parameters<typeof everyTodo>, []>>,
  Expect<Equal<Resolved<typeof byAuthor>, Todo[]>>,
  Expect<Equal<Parameters<typeof byAuthor>, [params: { authorId: string }]>>,
  Expect<Equal<Resolved<typeof count>, number>>,
  Expect<Equal<Parameters<typeof count>, [params?: undefined]>>,
  Expect<Equal<Parameters<typeof maybe>, [params?: { done?: boolean } | undefined]>>,
];

declare const controller: Controller;
export const reads = [
  controller.getResponse(everyTodo).data satisfies Todo[] | undefined,
  controller.getResponse(byAuthor, { authorId: 'a' }).data satisfies Todo[] | undefined,
  controller.getResponse(count).data satisfies number | undefined,
  controller.getResponse(maybe).data,
  controller.getResponse(maybe, { done: true }).data,
];

// @ts-expect-error its params are required
controller.getResponse(byAuthor);
// @ts-expect-error and typed
controller.getResponse(byAuthor, { authorId: 1 });
// @ts-expect-error a query reads entities of an Entity class
queryAll({ key: 'Todo' });
// @ts-expect-error the params are one object
queryAll(Todo, (todos, id: string) => todos.filter((todo) => todo.id === id));
