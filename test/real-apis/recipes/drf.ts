// your-api-drf.ts: Django REST Framework as its tutorial sets it up (DefaultRouter, ModelViewSet,
// PageNumberPagination, TokenAuthentication, django-filter).
import { Entity, createResource, hookifyResource, schema } from 'resource-elements/core';
// Field types (`Date` below) are read once this entry is imported.
import 'resource-elements/fields';

export class Todo extends Entity {
  id = 0;
  title = '';
  completed = false;
  owner = 0;
  created = new Date(0);
  pk() {
    return this.id;
  }
  static override key = 'Todo';
  // DRF sends ISO 8601 text: read as a Date, stored as the text.
  static override schema = { created: Date };
}

/** The session a login form fills: DRF's `POST /api/token/` answers `{ token }`. */
export const session = { token: '' };

export function drfResources(api: string) {
  // The router's URLs end with a slash: so does the template, and every member keeps it.
  const TodoResource = createResource({
    path: `${api}/api/todos/:id/`,
    schema: Todo,
    searchParams: {} as { completed?: boolean; owner?: number; page?: number },
    body: {} as { title?: string; completed?: boolean },
  }).extend({
    // PageNumberPagination's envelope; push, unshift and remove find the Collection in it.
    getList: {
      schema: {
        count: 0,
        next: null as string | null,
        previous: null as string | null,
        results: new schema.Collection([Todo]),
      },
    },
  });
  // Each request carries the token of the session at the time it is sent.
  const TodoHooks = hookifyResource(TodoResource, () =>
    session.token ? { headers: { Authorization: `Token ${session.token}` } } : undefined,
  );
  // The router has no PATCH on the list URL: take a todo out of the loaded lists with a PATCH
  // to the todo itself, whose answer the list's `remove` reads.
  const hide = (endpoint = TodoHooks.usePartialUpdate()) =>
    endpoint.extend({ schema: TodoResource.getList.schema.results.remove });
  return { TodoResource, TodoHooks, hide };
}
