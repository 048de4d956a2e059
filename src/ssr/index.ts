/**
 * `resource-elements/ssr`: server rendering with `@lit-labs/ssr`, in Node. Make a Controller per
 * request, `prefetch` the reads the page needs, render the page with `<resource-provider
 * .controller=${controller}>` and `${stateScript(controller)}` as its first child: every element
 * below shows the prefetched data in the HTML, and the provider in the browser takes the store
 * from that script before any descendant reads, so hydration sends no request for it.
 *
 * Importing this module defines `<resource-provider>` and lets `@lit/context` requests travel
 * the server's element tree (see `giveShadowRoot`), so a `ResourceController` finds the nearest
 * provider as in the browser.
 * @module resource-elements/ssr
 */
import { LitElementRenderer } from '@lit-labs/ssr';
import { LitElement, css, html } from 'lit';
import { unsafeHTML } from 'lit/directives/unsafe-html.js';
import { Controller, NetworkError } from '../core/index.js';
import { dehydrate } from '../hydration/index.js';
import type { DehydratedState } from '../hydration/index.js';
import { ResourceProvider } from '../lit/resource-provider.js';
import type { ControllerOptions, EndpointLike, Resolved, ResponseError } from '../core/index.js';

/** The attribute that marks the provider's state script; the browser side looks for it. */
export const STATE_ATTRIBUTE = 'data-resource-state';

/** Options of `createServerController`: a Controller's options, and where relative URLs point. */
export interface ServerControllerOptions extends ControllerOptions {
  /**
   * The origin relative request URLs (`/api/todos`) are sent to on the server, where there is no
   * page to be relative to, e.g. `'http://127.0.0.1:8000'`. Absolute URLs are sent as they are.
   */
  origin?: string;
  /**
   * Whether a failed read keeps why it failed in what the page shows and the state script
   * carries: the API's error body, the network's reason (an internal host, its address). Default
   * false: the page gets the method, URL and status only, and `onError` gets the whole failure.
   * Turn it on in development: `exposeErrors: process.env.NODE_ENV !== 'production'`.
   */
  exposeErrors?: boolean;
  /**
   * Told of each failure whose detail the page does not get (see `exposeErrors`), with that
   * detail: the network's error, or a `NetworkError` with the absolute URL and the API's body.
   * Default: `console.error`.
   */
  onError?: (error: unknown) => void;
}

/**
 * A Controller for one server request: it keeps everything it fetched until it is dropped
 * (`gcTime` Infinity by default: nothing is collected halfway through a render) and sends
 * relative URLs to `origin`. A failed read tells the page what failed (method, URL, status) but
 * not why, unless `exposeErrors`: why goes to `onError`. It retries nothing by default (`retry: 0`): the page waits for its
 * prefetches, and the browser fetches a read that failed here again. Make one per request: a
 * Controller holds one user's data.
 * @example
 * const controller = createServerController({ origin: 'http://127.0.0.1:8000' });
 */
export function createServerController(options: ServerControllerOptions = {}): Controller {
  const {
    origin,
    fetch: baseFetch = globalThis.fetch,
    exposeErrors = false,
    onError = (error: unknown) =>
      console.error('resource-elements: a read on the server failed:', error),
    ...rest
  } = options;
  const fetch: typeof globalThis.fetch = async (input, init) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    let absolute: URL;
    try {
      absolute = new URL(url, origin);
    } catch {
      throw new TypeError(
        origin === undefined
          ? `${url} is a relative URL and the server has no page to resolve it against: ` +
              `pass createServerController({ origin: 'https://your.site' }).`
          : `${url} is not a valid URL relative to the server controller's origin.`,
      );
    }
    const sent = baseFetch(
      typeof input === 'string' || input instanceof URL ? absolute : input,
      init,
    );
    if (exposeErrors) return sent;
    let response: Response;
    try {
      response = await sent;
    } catch (error) {
      // A timeout or an abort says nothing of the server: it goes on as it is.
      if (init?.signal?.aborted) throw error;
      onError(error);
      // eslint-disable-next-line preserve-caught-error -- its cause is what the page must not get
      throw new TypeError('fetch failed');
    }
    const { status } = response;
    if (response.ok || status > 599) return response;
    let text = '';
    try {
      text = await response.text();
    } catch {
      // The status is what the page gets anyway.
    }
    onError(
      new NetworkError({ method: init?.method ?? 'GET', url: absolute.href, response, body: text }),
    );
    // The status, and when to ask again: not the API's words, nor its status text.
    const retryAfter = response.headers.get('retry-after');
    return new Response(null, {
      status,
      headers: retryAfter === null ? {} : { 'retry-after': retryAfter },
    });
  };
  // No retries by default: a page waits for its prefetches, and the browser fetches a read that
  // failed on the server again anyway (with its own retries).
  return new Controller({ gcTime: Infinity, retry: 0, ...rest, fetch });
}

/**
 * Fetches `endpoint(...args)` into the controller and waits for it; resolves with the value, or
 * with undefined when it failed. It never rejects: a failure stays in the store as the read's
 * error, which the element renders on the server and the browser fetches again.
 * @example
 * await Promise.all([
 *   prefetch(controller, UserResource.getList),
 *   prefetch(controller, TodoResource.getList, { userId: 1 }),
 * ]);
 * if (controller.getError(UserResource.getList)) response.statusCode = 502;
 */
export async function prefetch<E extends EndpointLike>(
  controller: Controller,
  endpoint: E,
  ...args: Parameters<E>
): Promise<Resolved<E> | undefined> {
  try {
    return await controller.fetch(endpoint, ...args);
  } catch {
    return undefined;
  }
}

/**
 * What the server hands to the browser: `dehydrate(controller, filter)`, where every error is
 * kept until the browser retries it (`expiresAt` far in the future). Otherwise an error that
 * expired while the page loaded would make the browser's first render pending where the server
 * rendered the error, and Lit's hydration would fail on the difference.
 */
export function serverState(
  controller: Controller,
  filter?: (key: string) => boolean,
): DehydratedState {
  const state = dehydrate(controller, filter);
  const errors: Record<string, ResponseError> = {};
  for (const [key, error] of Object.entries(state.errors)) {
    Object.defineProperty(errors, key, {
      value: { ...error, expiresAt: Number.MAX_SAFE_INTEGER },
      enumerable: true,
    });
  }
  return { ...state, errors };
}

/** Characters that must not appear raw inside a `<script>` element's text. */
const UNSAFE = /[<>&\u2028\u2029]/g;

/**
 * `serverState` as JSON that is safe as the text of a `<script>` element: `<`, `>` and `&` are
 * written as `\u003c`, `\u003e` and `\u0026` (JSON.parse reads them back), so no value can close
 * the script (`</script>`) or open a comment (`<!--`); U+2028 and U+2029 are escaped too, so the
 * text is also safe to paste into JavaScript.
 * @example `<script type="application/json" data-resource-state>${serializeState(c)}</script>`
 */
export function serializeState(controller: Controller, filter?: (key: string) => boolean): string {
  return JSON.stringify(serverState(controller, filter)).replace(
    UNSAFE,
    (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

/**
 * The provider's state script, for the server template: put it first inside the
 * `<resource-provider>` that is given the same controller. In the browser the provider reads it
 * (and removes it) when it connects, before its descendants read.
 * @example
 * html`<resource-provider .controller=${controller}>
 *   ${stateScript(controller)}
 *   <todo-app></todo-app>
 * </resource-provider>`;
 */
export function stateScript(controller: Controller, filter?: (key: string) => boolean) {
  return unsafeHTML(
    `<script type="application/json" ${STATE_ATTRIBUTE}>${serializeState(controller, filter)}</script>`,
  );
}

/**
 * Lit's server render calls neither `connectedCallback` nor `createRenderRoot`, so a host has no
 * shadow root there, and an event dispatched inside it (a context request) stops at the top of
 * that shadow tree instead of reaching the host and the provider above it. Giving every Lit
 * element its (empty, shimmed) shadow root before its template renders makes event paths whole,
 * as in the browser; it runs nothing of the element's own. Returning undefined leaves the
 * element's render options to other callbacks.
 */
function giveShadowRoot(element: HTMLElement): {} | undefined {
  if (!element.shadowRoot) {
    const options = (element.constructor as { shadowRootOptions?: ShadowRootInit })
      .shadowRootOptions;
    element.attachShadow(options ?? { mode: 'open' });
  }
  // The provider's connectedCallback is for the browser (window events, the state script): when
  // the render is told to call connectedCallback, the provider is rendered without it.
  return element instanceof ResourceProvider ? {} : undefined;
}

const installed = Symbol.for('resource-elements.ssr-shadow-roots');
const registry = LitElementRenderer as unknown as Record<symbol, boolean>;
if (!registry[installed]) {
  registry[installed] = true;
  // First, so that it runs for every element before options that stop the search.
  LitElementRenderer.renderOptions.unshift(giveShadowRoot);
}

// The server renders <resource-provider> too, as it did when it was a Lit element: Lit's server
// render makes only Lit elements (and sends the requests below through them), so here, on the
// server only, the provider becomes one, rendering the shadow root it would have had: a slot, with
// no layout box before the browser defines it (the browser's provider gives itself an inline
// `display: contents` then, and keeps that shadow root).
if (!(ResourceProvider.prototype instanceof LitElement)) {
  Object.setPrototypeOf(ResourceProvider, LitElement);
  Object.setPrototypeOf(ResourceProvider.prototype, LitElement.prototype);
  Object.assign(ResourceProvider, {
    styles: css`
      :host {
        display: contents;
      }
    `,
  });
  Object.assign(ResourceProvider.prototype, { render: () => html`<slot></slot>` });
}
if (!customElements.get('resource-provider')) {
  customElements.define('resource-provider', ResourceProvider);
}
