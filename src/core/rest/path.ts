/**
 * Path templates: `:name` is a required parameter, `:name?` an optional one, and a backslash makes
 * the next character literal (`'/search\\?q=:q'` has a literal `?`). Values are percent-encoded, so
 * no value can change the shape of the path it fills.
 */
import type { Simplify } from '../type-utils.js';
import { encode, pathText, place } from './guards.js';
import { once } from '../util/own.js';

function DEV(): boolean {
  return (typeof process === 'undefined' ? 'production' : process.env.NODE_ENV) !== 'production';
}

/** A parameter of a path template. */
export interface PathParam {
  readonly name: string;
  readonly optional: boolean;
}

/** A parsed template: literal text and parameters, in order. */
export type PathToken = string | PathParam;

/** A value that can fill a path parameter. */
export type PathValue = string | number;

const parsed = new Map<string, readonly PathToken[]>();

/**
 * An absolute template's origin (`https://api.example.com:8443`) and the path after it: the
 * scheme, host and port are text, never parameters.
 */
const splitOrigin = (template: string): [string, string] => {
  const origin = /^[a-z][\w+.-]*:\/\/[^/]*/i.exec(template)?.[0] ?? '';
  return [origin, template.slice(origin.length)];
};

/**
 * Splits a template into literal text and parameters. Results are cached per template.
 * @example parsePath('/users/:id') // ['/users/', { name: 'id', optional: false }]
 */
export function parsePath(template: string): readonly PathToken[] {
  let tokens = parsed.get(template);
  if (!tokens) {
    const out: PathToken[] = [];
    const [origin, path] = splitOrigin(template);
    let text = origin;
    // An escaped character, a parameter (`\w` is the name's [A-Za-z0-9_]), or one literal character.
    path.replace(
      /\\([^])|:(\w+)(\?)?|[^]/g,
      (char, escaped?: string, name?: string, optional?: string) => {
        if (name) {
          if (text) out.push(text);
          out.push({ name, optional: !!optional });
          text = '';
        } else text += escaped ?? char;
        return '';
      },
    );
    if (text) out.push(text);
    parsed.set(template, (tokens = Object.freeze(out)));
  }
  return tokens;
}

/**
 * The parameters of a template, in order.
 * @example pathParams('/:group/posts/:id?') // [{ name: 'group', … }, { name: 'id', optional: true }]
 */
export function pathParams(template: string): readonly PathParam[] {
  return paramsOf(parsePath(template));
}

/** The parameters of parsed tokens, once per template: a key is built on every read. */
const paramsOf = once((tokens: readonly PathToken[]) =>
  tokens.filter((token): token is PathParam => typeof token != 'string'),
);

/**
 * Fills a template with values, each percent-encoded as one path component. A missing optional
 * parameter is left out together with the `/` before it. Values that make a `.` or `..` segment
 * are refused. Errors name the `method` when it is given.
 * @example fillPath('/:group/posts/:id', { group: 'news', id: 5 }) // '/news/posts/5'
 */
export function fillPath(
  template: string,
  params: Readonly<Record<string, unknown>> = {},
  method?: string,
): string {
  /** Where each value starts in `out`, its place and its text. */
  const filled: [number, () => string, string][] = [];
  let out = '';
  for (const token of parsePath(template)) {
    if (typeof token == 'string') out += token;
    else {
      const where = () => place('Path', token.name, template, method);
      const text = pathText(params, token.name, token.optional, where);
      if (text === undefined) out = out.replace(/\/$/, '');
      else {
        filled.push([out.length, where, text]);
        out += encode(text, where);
      }
    }
  }
  // A segment `.` or `..` (or `%2e`, `.%2E`…, which URL parsers read as dots too) would move the
  // request to another path. A value can still make one alone or with the text beside it (`/:a:b`
  // with `.` and `.`); the template's own segments are its own.
  const path = out.split(/[?#]/)[0]!;
  // Only a path with a `.` or a `%` can hold one (the check costs a key build much).
  for (const [at, where, text] of /[.%]/.test(path) ? filled : []) {
    const segment = path.slice(path.lastIndexOf('/', at) + 1).split('/')[0]!;
    if (at < path.length && /^(\.|%2e){1,2}$/i.test(segment)) {
      throw new Error(
        `${where()} cannot be "${text}"${DEV() ? `: it makes the dot segment "${segment}"` : ''}.`,
      );
    }
  }
  return out || '/';
}

/**
 * The template with its last parameter (and everything after it, and the `/` before it) removed:
 * the path of a resource's list and create members. A template that ends with `/` (Django REST
 * Framework's routes) gives a path that ends with one. An absolute template keeps its origin.
 * @example shortenPath('/:group/posts/:id') // '/:group/posts'
 * @example shortenPath('/:first') // '/'
 * @example shortenPath('/api/todos/:id/') // '/api/todos/'
 */
export function shortenPath(template: string): string {
  const [origin, path] = splitOrigin(template);
  let out = '';
  let kept: string | undefined;
  for (const token of parsePath(path)) {
    if (typeof token == 'string') {
      // Re-escaped: a literal `?` right after a parameter would read as "optional".
      out += token.replace(/[\\:?]/g, '\\$&');
    } else {
      kept = out;
      out += `:${token.name}${token.optional ? '?' : ''}`;
    }
  }
  if (kept === undefined) {
    throw new Error(
      `Path "${template}" has no parameter${DEV() ? `: a resource's list path is its path with the last parameter removed, so the path needs one (e.g. "/todos/:id")` : ''}.`,
    );
  }
  return origin + (kept.replace(/\/$/, '') + (path.endsWith('/') ? '/' : '') || '/');
}

// ---- Types: the URL parameters of a template, inferred from its text. ----

type Lower =
  | 'a'
  | 'b'
  | 'c'
  | 'd'
  | 'e'
  | 'f'
  | 'g'
  | 'h'
  | 'i'
  | 'j'
  | 'k'
  | 'l'
  | 'm'
  | 'n'
  | 'o'
  | 'p'
  | 'q'
  | 'r'
  | 's'
  | 't'
  | 'u'
  | 'v'
  | 'w'
  | 'x'
  | 'y'
  | 'z';
type Digit = '0' | '1' | '2' | '3' | '4' | '5' | '6' | '7' | '8' | '9';
type NameChar = Lower | Uppercase<Lower> | Digit | '_';

interface Found<R extends string, O extends string> {
  required: R;
  optional: O;
}

type Scan<
  S extends string,
  R extends string,
  O extends string,
> = S extends `\\${infer _Escaped}${infer Rest}`
  ? Scan<Rest, R, O>
  : S extends `:${infer Rest}`
    ? ReadName<Rest, '', R, O>
    : S extends `${infer _Char}${infer Rest}`
      ? Scan<Rest, R, O>
      : Found<R, O>;

type ReadName<
  S extends string,
  Name extends string,
  R extends string,
  O extends string,
> = S extends `${infer C}${infer Rest}`
  ? C extends NameChar
    ? ReadName<Rest, `${Name}${C}`, R, O>
    : Name extends ''
      ? Scan<S, R, O>
      : C extends '?'
        ? Scan<Rest, R, O | Name>
        : Scan<S, R | Name, O>
  : Name extends ''
    ? Found<R, O>
    : Found<R | Name, O>;

type ArgsOf<F> =
  F extends Found<infer R, infer O>
    ? Simplify<{ [K in R]: PathValue } & { [K in Exclude<O, R>]?: PathValue }>
    : never;

/**
 * The URL parameters of a path template.
 * @example type A = PathArgs<'/:group/posts/:id?'> // { group: string | number; id?: string | number }
 */
export type PathArgs<S extends string> = string extends S
  ? Record<string, PathValue | undefined>
  : ArgsOf<Scan<SplitOrigin<S>[1], never, never>>;

/** An absolute template's origin and the path after it, as `splitOrigin` splits it. */
type SplitOrigin<S extends string> = S extends `${infer Scheme}://${infer Rest}`
  ? Scheme extends `${string}${'/' | ':' | '\\' | '?'}${string}`
    ? ['', S]
    : Rest extends `${infer Host}/${infer Path}`
      ? [`${Scheme}://${Host}`, `/${Path}`]
      : [S, '']
  : ['', S];

/** The names of a template's parameters, required and optional. */
export type PathKeys<S extends string> = keyof PathArgs<S> & string;

// ---- Types: the shortened template, computed from its text like PathArgs. ----

type TrimSlash<S extends string> = S extends '' | '/'
  ? '/'
  : S extends `${infer Head}\\/`
    ? TrimSlash<Head>
    : S extends `${infer Head}/`
      ? Head extends ''
        ? '/'
        : Head
      : S;

type ShortenScan<
  S extends string,
  Seen extends string,
  Kept extends string,
  Found extends boolean,
> = S extends `\\${infer Escaped}${infer Rest}`
  ? ShortenScan<Rest, `${Seen}\\${Escaped}`, Kept, Found>
  : S extends `:${infer Rest}`
    ? ShortenName<Rest, '', Seen, Kept, Found>
    : S extends `${infer Char}${infer Rest}`
      ? ShortenScan<Rest, `${Seen}${Char}`, Kept, Found>
      : Found extends true
        ? TrimSlash<Kept>
        : never;

type ShortenName<
  S extends string,
  Name extends string,
  Seen extends string,
  Kept extends string,
  Found extends boolean,
> = S extends `${infer C}${infer Rest}`
  ? C extends NameChar
    ? ShortenName<Rest, `${Name}${C}`, Seen, Kept, Found>
    : Name extends ''
      ? ShortenScan<S, `${Seen}:`, Kept, Found>
      : C extends '?'
        ? ShortenScan<Rest, `${Seen}:${Name}?`, Seen, true>
        : ShortenScan<S, `${Seen}:${Name}`, Seen, true>
  : Name extends ''
    ? Found extends true
      ? TrimSlash<Kept>
      : never
    : TrimSlash<Seen>;

/**
 * The shortened template as a type: the text before the last parameter, without its trailing `/`
 * (`'/'` when nothing is left); `never` for a template without parameters, which shortenPath
 * rejects. Escapes are kept as written, so PathArgs of the result are the right ones.
 * @example type S = ShortenPath<'/:group/posts/:id'> // '/:group/posts'
 */
export type ShortenPath<S extends string> = string extends S
  ? string
  : `${SplitOrigin<S>[0]}${EndSlash<ShortenScan<SplitOrigin<S>[1], '', '', false>, SplitOrigin<S>[1]>}`;

/** `Short` with a `/` at its end when the template `S` ends with one (and `Short` does not). */
type EndSlash<Short extends string, S extends string> = S extends `${string}/`
  ? Short extends `${string}/`
    ? Short
    : `${Short}/`
  : Short;
