// your-api-rails.ts: Rails as `rails new --api` and `rails generate scaffold Todo title:string
// completed:boolean` set it up (`resources :todos` with no trailing slash, integer ids,
// created_at and updated_at, the record's errors with a 422).
import { Entity, createResource } from 'resource-elements/core';
// Field types (`Date` below) are read once this entry is imported.
import 'resource-elements/fields';

export class Todo extends Entity {
  id = 0;
  title = '';
  completed = false;
  created_at = new Date(0);
  updated_at = new Date(0);
  pk() {
    return this.id;
  }
  static override key = 'Todo';
  // ActiveRecord's timestamps come as ISO 8601 text: read as Dates, stored as the text.
  static override schema = { created_at: Date, updated_at: Date };
}

export function railsResources(api: string) {
  // `{ title }` is enough: the app's wrap_parameters hands it to the controller as
  // params[:todo], which `params.require(:todo)` wants.
  return createResource({
    urlPrefix: api,
    path: '/todos/:id',
    schema: Todo,
    body: {} as { title?: string; completed?: boolean },
  });
}
