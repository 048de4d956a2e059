/**
 * Peer: Reactive Data Client's normalizr with schemas from its endpoint package.
 *
 * The registry serves @data-client/endpoint up to 0.9.9. Its Entity speaks the positional schema
 * protocol (normalize(input, parent, key, visit, addEntity, visitedEntities, storeEntities, args));
 * @data-client/normalizr 0.11 and 0.12 still call schemas that way (only the query protocol changed,
 * infer → queryKey, which this benchmark does not use), while 0.18 passes a delegate object and throws
 * on these entities. 0.12.3 is therefore the newest normalizr that works with endpoint 0.9.9, and it
 * brings MemoCache, the memoized denormalize its store uses.
 */
import { createRequire } from 'node:module';
import { Entity } from '@data-client/endpoint';
import { MemoCache, denormalize, normalize } from '@data-client/normalizr';
import type { ArticleJSON } from '../fixtures/articles.js';
import type { BenchLibrary, Normalized } from './types.js';

class User extends Entity {
  id = '';
  name = '';
  username = '';
  email = '';
  bio = '';
  pk() {
    return this.id;
  }
  static override key = 'User';
}

class Comment extends Entity {
  id = '';
  body = '';
  createdAt = '';
  likes = 0;
  author = User.fromJS();
  pk() {
    return this.id;
  }
  static override key = 'Comment';
  static override schema = { author: User };
}

class Article extends Entity {
  id = '';
  title = '';
  body = '';
  createdAt = '';
  tags: string[] = [];
  published = false;
  author = User.fromJS();
  comments: Comment[] = [];
  pk() {
    return this.id;
  }
  static override key = 'Article';
  static override schema = { author: User, comments: [Comment] };
}

const articles = [Article];
const version = (name: string) =>
  (createRequire(import.meta.url)(`${name}/package.json`) as { version: string }).version;

export const dataClient: BenchLibrary = {
  name: `@data-client ${version('@data-client/normalizr')}`,
  normalize: (input: readonly ArticleJSON[]) => normalize(input, articles),
  denormalize: ({ result, entities }: Normalized) => denormalize(result, articles, entities),
  createMemo() {
    const memo = new MemoCache();
    return ({ result, entities }: Normalized) =>
      memo.denormalize(result, articles, entities, []).data;
  },
};
