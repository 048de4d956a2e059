import type { ReactiveController, ReactiveControllerHost } from 'lit';
import { ContextConsumer } from '@lit/context';
import { isEndpoint } from '../core/index.js';
import type { ControllerLike, EndpointLike } from '../core/index.js';
import { controllerContext } from './controller-context.js';
import { watchLateProviders } from './provider-request.js';

type Host = ReactiveControllerHost & HTMLElement;

/**
 * Whether `element` is rendered on a server (@lit-labs/ssr): the server's elements (its DOM shim's)
 * belong to no document. Asked of the element, not of Lit's `isServer`, so that a page without Lit
 * elements does not bundle Lit for it.
 * @example if (onServer(host)) return;
 */
export const onServer = (element: Element): boolean => !element.ownerDocument;

/**
 * The endpoint of an endpoint-or-hook: a hook (a function without `key`) is called.
 * @example endpointOf(() => TodoResource.get) // TodoResource.get
 */
export const endpointOf = <E extends EndpointLike>(source: E | (() => E)): E =>
  isEndpoint(source) ? source : (source as () => E)();

/**
 * A host's link to the Controller of its nearest `<resource-provider>`, what the Lit controllers
 * (and the signals) share. It asks when the host connects, follows the answer when the host moves
 * or a nearer provider is inserted, and keeps an unanswered request until a provider defined later
 * connects: a request that reaches the document found no provider, and the document's
 * `ContextRoot` sends it again when a provider of the same context announces itself.
 */
export class ProviderLink implements ReactiveController {
  /** The Controller a provider gave since the host last connected; undefined before one did. */
  bound: ControllerLike | undefined;
  /** The Controller the nearest provider gave last; kept when the host leaves. */
  last: ControllerLike | undefined;
  /** Its `hostConnected()` asks now: a server render (@lit-labs/ssr) calls no `hostConnected`. */
  readonly consumer: ContextConsumer<typeof controllerContext, Host>;

  /**
   * @param onController called when a provider answers with a Controller, unless the same one
   *   already did since the host connected
   */
  constructor(
    readonly host: Host,
    onController?: (controller: ControllerLike) => void,
  ) {
    host.addController(this);
    // Added after this link, so hostConnected has watched for late providers before the consumer
    // sends its request.
    this.consumer = new ContextConsumer(host, {
      context: controllerContext,
      subscribe: true,
      callback: (controller) => {
        if (!controller || controller === this.bound) return;
        this.bound = this.last = controller;
        onController?.(controller);
      },
    });
  }

  hostConnected(): void {
    // A server render that calls connectedCallback stays a render.
    if (!onServer(this.host)) watchLateProviders(this.host.ownerDocument);
  }

  hostDisconnected(): void {
    // Reconnecting asks again, and the answer may come from another provider or from none.
    this.bound = undefined;
  }
}
