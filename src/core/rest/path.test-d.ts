// Type tests: compiled by `tsc` in `npm test`; a regression is a compile error.
import type { PathArgs, ShortenPath } from './path.js';
import type { Equal, Expect } from '../test-utils/type-assert.js';

type V = string | number;

export type Cases = [
  Expect<Equal<PathArgs<'/:group/posts/:id'>, { group: V; id: V }>>,
  Expect<Equal<PathArgs<'/users/:id?'>, { id?: V }>>,
  Expect<Equal<PathArgs<'/:org?/repos/:id'>, { org?: V; id: V }>>,
  Expect<Equal<PathArgs<'/time\\:zone/:tz'>, { tz: V }>>,
  Expect<Equal<PathArgs<'/search\\?q=:q'>, { q: V }>>,
  Expect<Equal<PathArgs<'/files/:name.json'>, { name: V }>>,
  Expect<Equal<PathArgs<'/a:/b'>, {}>>,
  Expect<Equal<PathArgs<string>, Record<string, V | undefined>>>,
];

// Misuse is a compile error.
// @ts-expect-error `id` is required
export const missing: PathArgs<'/users/:id'> = {};
// @ts-expect-error path values are strings or numbers
export const wrongType: PathArgs<'/users/:id'> = { id: true };

export type ShortenCases = [
  Expect<Equal<ShortenPath<'/:first/:second'>, '/:first'>>,
  Expect<Equal<ShortenPath<'/:first'>, '/'>>,
  Expect<Equal<ShortenPath<'/:group/posts/:id'>, '/:group/posts'>>,
  Expect<Equal<ShortenPath<'/:group/posts/:id?'>, '/:group/posts'>>,
  Expect<Equal<ShortenPath<'/time\\:zone/:a/x/:tz.json'>, '/time\\:zone/:a/x'>>,
  Expect<Equal<ShortenPath<'/a/:b?/c/:d'>, '/a/:b?/c'>>,
  Expect<Equal<ShortenPath<'/todos'>, never>>,
  Expect<Equal<ShortenPath<string>, string>>,
  Expect<Equal<PathArgs<ShortenPath<'/:group/posts/:id'>>, { group: V }>>,
];
