// The README's Guide, as a consumer writes it: an Entity and its resource.
import { Entity, createResource } from 'resource-elements';

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
