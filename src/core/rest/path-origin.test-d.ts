// Types of absolute and trailing-slash templates: the origin is never a parameter, and the
// shortened template keeps the slash after the last parameter.
import type { PathArgs, ShortenPath } from './path.js';

type Equal<A, B> =
  (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
const check = <T extends true>(value?: T) => value;

check<Equal<PathArgs<'http://127.0.0.1:8000/api/todos/:id/'>, { id: string | number }>>();
check<
  Equal<
    PathArgs<'https://api.example.com/t/:group/:id?'>,
    { group: string | number; id?: string | number }
  >
>();
check<Equal<ShortenPath<'/api/todos/:id/'>, '/api/todos/'>>();
check<Equal<ShortenPath<'/:first/'>, '/'>>();
check<Equal<ShortenPath<'/:first'>, '/'>>();
check<Equal<ShortenPath<'/:group/posts/:id'>, '/:group/posts'>>();
check<
  Equal<ShortenPath<'http://127.0.0.1:8000/api/todos/:id/'>, 'http://127.0.0.1:8000/api/todos/'>
>();
check<Equal<ShortenPath<'https://api.example.com/t/:id'>, 'https://api.example.com/t'>>();
check<
  Equal<
    PathArgs<ShortenPath<'http://127.0.0.1:8000/api/:group/todos/:id/'>>,
    { group: string | number }
  >
>();
