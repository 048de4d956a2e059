// The guide's examples (docs/guide/), as a consumer writes them: an Entity and its resource.
import { Entity, createResource, type ControllerLike } from 'resource-elements';

export class Todo extends Entity {
  id = '';
  userId = 0;
  title = '';
  completed = false;
  pk() {
    return this.id;
  }
  static key = 'Todo';
}

export const TodoResource = createResource({
  path: '/api/todos/:id',
  schema: Todo,
  searchParams: {} as { userId?: number; completed?: boolean },
  body: {} as { title: string; userId: number; completed?: boolean },
});

// The types still catch mistakes on every compiler of the matrix (an `any` creeping in would make
// these lines compile, and `@ts-expect-error` then fails the check).
export async function mistakes(controller: ControllerLike) {
  // @ts-expect-error `id` is required by the path '/api/todos/:id'
  await controller.fetch(TodoResource.get, {});
  // @ts-expect-error `title` is a string
  await controller.fetch(TodoResource.getList.push, { title: 1, userId: 1 });
  // @ts-expect-error `userId` is a number in searchParams
  await controller.fetch(TodoResource.getList, { userId: 'one' });
}
