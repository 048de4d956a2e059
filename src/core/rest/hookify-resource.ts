/**
 * hookifyResource: one hook per member of a resource (`useGet`, `useGetList`…). Each hook reads
 * request init values from `useInit` (headers from application state, say) and returns the member
 * carrying them, the same object for as long as the init stays equal, so elements do not churn.
 */
import { isRestEndpoint } from './is-rest-endpoint.js';
import type { RestEndpoint } from './rest-endpoint.js';
import { headersRecord } from './guards.js';

/** A hook that returns request init values (called by every hook, on every use). */
export type UseInit = () => RequestInit | undefined;

/** The hooks of a resource: `use<Member>` for each of its endpoint members. */
export type HookifiedResource<R> = {
  readonly [
    K in keyof R as K extends 'extend'
      ? never
      : R[K] extends RestEndpoint<any>
        ? `use${Capitalize<K & string>}`
        : never
  ]: () => R[K];
};

/**
 * Turns a resource into hooks. Without `useInit` a hook returns the member itself.
 * @example
 * const TodoHooks = hookifyResource(TodoResource, () => ({ headers: { 'Access-Token': session.token } }));
 * const getTodo = TodoHooks.useGet(); // sends Access-Token
 * const list = TodoHooks.useGetList();
 * await controller.fetch(list.push, { title: 'Buy milk' });
 */
export function hookifyResource<R extends object>(
  resource: R,
  useInit?: UseInit,
): HookifiedResource<R> {
  const hooks: Record<string, () => unknown> = {};
  for (const name of Object.keys(resource)) {
    const member = (resource as Record<string, unknown>)[name];
    if (!isRestEndpoint(member)) continue;
    let last: Record<string, unknown> | undefined;
    let endpoint: unknown;
    hooks[`use${name.charAt(0).toUpperCase()}${name.slice(1)}`] = () => {
      const init = useInit?.() as Record<string, unknown> | undefined;
      if (!init) return member;
      // A fresh `{ headers: {…} }` per render is still the same init: headers compare by value.
      if (
        !last ||
        Object.keys({ ...last, ...init }).some((key) =>
          key == 'headers'
            ? headersKey(last!.headers) != headersKey(init.headers)
            : last![key] !== init[key],
        )
      ) {
        const base = member.requestInit;
        // Headers merge by name (in any letter case) instead of replacing the member's.
        const headers = (base?.headers || init.headers) && {
          headers: headersRecord(init.headers as HeadersInit, headersRecord(base?.headers)),
        };
        endpoint = member.extend({
          requestInit: { ...base, ...init, ...(headers as object) },
        } as any);
        last = init;
      }
      return endpoint;
    };
  }
  return hooks as HookifiedResource<R>;
}

function headersKey(headers: unknown): string {
  return JSON.stringify(
    Object.entries(headersRecord(headers as HeadersInit))
      .map(([name, value]) => [name.toLowerCase(), value])
      .sort(),
  );
}
