/**
 * The library under test, through its public entry point. `npm run bench` builds first and this
 * resolves to dist/, the same JavaScript the peers ship as; the smoke test runs it from src/
 * through the `resource-elements-source` condition.
 */
import { Entity, MemoCache, denormalize, normalize } from 'resource-elements/core';
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

export const resourceElements: BenchLibrary = {
  name: 'resource-elements',
  ours: true,
  normalize: (input: readonly ArticleJSON[]) => normalize(articles, input),
  denormalize: ({ result, entities }: Normalized) =>
    denormalize(articles, result, entities as Parameters<typeof denormalize>[2]),
  createMemo() {
    const memo = new MemoCache();
    return ({ result, entities }: Normalized) =>
      memo.denormalize(articles, result, entities as Parameters<typeof denormalize>[2]);
  },
};
