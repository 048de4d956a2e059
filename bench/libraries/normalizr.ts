/**
 * Peer: the original normalizr (3.6.2). Plain objects out, no memo cache: its "cached" column is
 * n/a.
 */
import { createRequire } from 'node:module';
import { denormalize, normalize, schema } from 'normalizr';
import type { ArticleJSON } from '../fixtures/articles.js';
import type { BenchLibrary, Normalized } from './types.js';

const user = new schema.Entity('User');
const comment = new schema.Entity('Comment', { author: user });
const article = new schema.Entity('Article', { author: user, comments: [comment] });
const articles = [article];

const { version } = createRequire(import.meta.url)('normalizr/package.json') as { version: string };

export const normalizr: BenchLibrary = {
  name: `normalizr ${version}`,
  normalize: (input: readonly ArticleJSON[]) => normalize(input, articles),
  denormalize: ({ result, entities }: Normalized) =>
    denormalize(result, articles, entities as Record<string, Record<string, unknown>>),
};
