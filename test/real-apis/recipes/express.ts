// your-api-express.ts: Express as its guide sets it up (express.json(), a Router at /api/todos
// with no trailing slash, integer ids, express-validator), with the total of a list in
// X-Total-Count and `?page=2&limit=10` paging.
import { Entity, RestEndpoint, createResource, schema } from 'resource-elements/core';
import type { RestGenerics } from 'resource-elements/core';
// Field types (`Date` below) are read once this entry is imported.
import 'resource-elements/fields';

export class Todo extends Entity {
  id = 0;
  title = '';
  completed = false;
  createdAt = new Date(0);
  pk() {
    return this.id;
  }
  static override key = 'Todo';
  // res.json() sends a Date as ISO 8601 text: read as a Date, stored as the text.
  static override schema = { createdAt: Date };
}

/** A list whose total comes in X-Total-Count: `{ items, total }`. */
export class TotalCountEndpoint<O extends RestGenerics = RestGenerics> extends RestEndpoint<O> {
  override async parseResponse(response: Response) {
    const value = await super.parseResponse(response);
    // push and unshift are this class too, and answer with the one todo they created.
    if (this.method !== 'GET') return value;
    return { items: value, total: Number(response.headers.get('X-Total-Count') ?? 0) };
  }
}

export function expressResources(api: string) {
  // GET /api/todos?completed=false&page=2&limit=10 -> [todo, …] with X-Total-Count: 42
  const getList = new TotalCountEndpoint({
    urlPrefix: api,
    path: '/api/todos',
    schema: { items: new schema.Collection([Todo]), total: 0 },
    searchParams: {} as { completed?: boolean; limit?: number },
    body: {} as { title: string; completed?: boolean },
    paginationField: 'page',
  });
  // The router's paths have no trailing slash: neither has the template.
  return createResource({
    urlPrefix: api,
    path: '/api/todos/:id',
    schema: Todo,
    body: {} as { title: string; completed?: boolean },
  }).extend(() => ({ getList }));
}
