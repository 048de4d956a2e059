// your-api-fastapi.ts: FastAPI as its tutorial sets it up (no trailing slash, UUID ids,
// datetimes, OAuth2 password flow with Bearer tokens, skip/limit and cursor paging).
import {
  Entity,
  RestEndpoint,
  createResource,
  hookifyResource,
  schema,
} from 'resource-elements/core';
// Field types (`Date` below) are read once this entry is imported.
import 'resource-elements/fields';

export class Task extends Entity {
  id = '';
  title = '';
  status = 'todo';
  owner = '';
  due: Date | null = null;
  created = new Date(0);
  pk() {
    return this.id;
  }
  static override key = 'Task';
  static override schema = { created: Date, due: Date };
}

export class Project extends Entity {
  id = 0;
  name = '';
  pk() {
    return this.id;
  }
  static override key = 'Project';
}

/** The Bearer token of `POST /token`; it expires, and a new login replaces it. */
export const session = { token: '' };

/** OAuth2's password flow: a form body, `{ access_token }` back. */
export async function login(api: string, username: string, password: string) {
  const response = await fetch(`${api}/token`, {
    method: 'POST',
    body: new URLSearchParams({ username, password }),
  });
  if (!response.ok) throw new Error(`login failed: ${response.status}`);
  session.token = ((await response.json()) as { access_token: string }).access_token;
}

export function fastApiResources(api: string) {
  const bearer = () =>
    session.token ? { headers: { Authorization: `Bearer ${session.token}` } } : undefined;
  const TaskResource = createResource({
    urlPrefix: api,
    // FastAPI's routes have no trailing slash (the other form answers 307).
    path: '/tasks/:task_id',
    schema: Task,
    searchParams: {} as { status?: string; skip?: number; limit?: number },
    body: {} as { title?: string; status?: string; due?: string | null },
  });
  // `DELETE /projects/{project_id}` answers 204: the pk comes from the path's last parameter.
  const ProjectResource = createResource({
    urlPrefix: api,
    path: '/projects/:project_id',
    schema: Project,
  });
  const TaskHooks = hookifyResource(TaskResource, bearer);
  const ProjectHooks = hookifyResource(ProjectResource, bearer);
  // Cursor paging: `{ items, next_cursor }`; getPage appends the next page to the list.
  const tasksByCursor = new RestEndpoint({
    urlPrefix: api,
    path: '/tasks/cursor',
    searchParams: {} as { limit: number },
    paginationField: 'cursor',
    schema: { items: new schema.Collection([Task]), next_cursor: null as string | null },
  });
  return { TaskResource, ProjectResource, TaskHooks, ProjectHooks, tasksByCursor };
}
