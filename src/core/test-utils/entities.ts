// Entity classes shared by the core's tests.
import { Entity } from '../schema/entity.js';
import { Collection } from '../schema/collection.js';

export class User extends Entity {
  id = '';
  name = '';
  friends: User[] = [];
  pk() {
    return this.id;
  }
  static key = 'User';
  static schema = {};
}
// Set after the class exists: the schema refers to the class itself.
User.schema = { friends: [User] };

export class Todo extends Entity {
  id = '';
  title = '';
  completed = false;
  userId: number | string = 0;
  /** Optional: default null. */
  assignee: User | null = null;
  pk() {
    return this.id;
  }
  static key = 'Todo';
  static schema = { assignee: User };
}

export class Comment extends Entity {
  id = '';
  body = '';
  author = User.fromJS();
  pk() {
    return this.id;
  }
  static key = 'Comment';
  /** Required: the default is a User. */
  static schema = { author: User };
}

export class Article extends Entity {
  id = '';
  title = '';
  author = User.fromJS();
  comments: Comment[] = [];
  pk() {
    return this.id;
  }
  static key = 'Article';
  static schema = { author: User, comments: [Comment] };
}

export const todoList = new Collection([Todo]);
