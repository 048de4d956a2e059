// Entities and endpoints shared by the controller's tests.
import { Entity } from '../../schema/entity.js';
import { Collection } from '../../schema/collection.js';
import { Invalidate } from '../../schema/invalidate.js';
import type { RetryOption } from '../../protocol/types.js';
import { fakeEndpoint } from './fake-endpoint.js';

export class Author extends Entity {
  id = '';
  name = '';
  pk() {
    return this.id;
  }
  static key = 'Author';
}

export class Todo extends Entity {
  id = '';
  title = '';
  completed = false;
  author: Author | null = null;
  pk() {
    return this.id;
  }
  static key = 'Todo';
  static schema = { author: Author };
}

export const todoList = new Collection([Todo]);

/**
 * The usual resource, built from fake endpoints. `retry: 0` is for tests of what a failure does
 * (stored error, backoff, ordering), where retrying is not the subject.
 */
export function todoEndpoints(options: { optimistic?: boolean; retry?: RetryOption } = {}) {
  const optimistic = options.optimistic ?? false;
  const { retry } = options;
  return {
    get: fakeEndpoint({ path: '/todos/:id', schema: Todo, retry }),
    getList: fakeEndpoint({ path: '/todos', schema: todoList, retry }),
    getPage: fakeEndpoint({
      path: '/todos',
      retry,
      schema: todoList.addWith((existing, incoming) => [...existing, ...incoming]),
      paginationField: 'page',
    }),
    create: fakeEndpoint({ path: '/todos', method: 'POST', schema: todoList.push }),
    update: fakeEndpoint({
      path: '/todos/:id',
      method: 'PATCH',
      schema: Todo,
      getOptimisticResponse: optimistic
        ? (snapshot, params: { id: string }, body: object) => {
            const stored = snapshot.get(Todo, params);
            if (!stored) throw snapshot.abort;
            return { ...stored, ...body };
          }
        : undefined,
    }),
    remove: fakeEndpoint({
      path: '/todos/:id',
      method: 'DELETE',
      schema: new Invalidate(Todo),
      getOptimisticResponse: optimistic ? (_snapshot, params: object) => params : undefined,
    }),
  };
}

/**
 * A todo with a number id and a user, as a createResource over `/todos/:id` with `userId` and
 * `completed` filters stores it (the move and follow tests' lists are filtered by both).
 */
export class UserTodo extends Entity {
  id = 0;
  userId = 0;
  title = '';
  completed = false;
  pk() {
    return String(this.id);
  }
  static override key = 'Todo';
}
