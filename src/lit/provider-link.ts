import { isServer } from 'lit';
import type { ReactiveController, ReactiveControllerHost } from 'lit';
import { ContextConsumer } from '@lit/context';
import type { ControllerLike } from '../core/index.js';
import { controllerContext } from './controller-context.js';
import { watchForLateProviders } from './late-providers.js';

type Host = ReactiveControllerHost & HTMLElement;

/**
 * A host's link to the Controller of its nearest `<resource-provider>`, shared by the Lit
 * controllers. It asks when the host connects, follows the answer when the host moves or a nearer
 * provider is inserted, and keeps an unanswered request until a provider defined later connects.
 * With `onMissing`, it says when no provider answered by the end of the task the host connected in.
 */
export class ProviderLink implements ReactiveController {
  #controller: ControllerLike | undefined;
  /** Whether a provider answered since the host last connected. */
  #answered = false;
  #check: ReturnType<typeof setTimeout> | undefined;
  #missing: Error | undefined;
  readonly #consumer: ContextConsumer<typeof controllerContext, Host>;
  readonly #host: Host;
  readonly #onController: ((controller: ControllerLike) => void) | undefined;
  readonly #onMissing: (() => void) | undefined;

  /**
   * @param onController called when a provider answers with a Controller, unless the same one
   *   already did since the host connected
   * @param onMissing called when the host connected and no provider answered within that task
   */
  constructor(
    host: Host,
    onController?: (controller: ControllerLike) => void,
    onMissing?: () => void,
  ) {
    this.#host = host;
    this.#onController = onController;
    this.#onMissing = onMissing;
    host.addController(this);
    // Added after this link, so hostConnected has watched for late providers before the consumer
    // sends its request.
    this.#consumer = new ContextConsumer(host, {
      context: controllerContext,
      subscribe: true,
      callback: this.#onAnswer,
    });
  }

  /** The Controller the nearest provider gave; kept when the host leaves. */
  get controller(): ControllerLike | undefined {
    return this.#controller;
  }

  /** True when a provider answered since the host last connected. */
  get answered(): boolean {
    return this.#answered;
  }

  /**
   * With `onMissing`: the error of a host that connected and found no provider, until one
   * answers.
   */
  get missing(): Error | undefined {
    return this.#missing;
  }

  /** Asks now: a server render (@lit-labs/ssr) calls no `hostConnected`. */
  request(): void {
    this.#consumer.hostConnected();
  }

  /** The error for a host that needed a Controller and found no provider. */
  missingError(doing = ''): Error {
    return new Error(
      `<${this.#host.localName}> found no <resource-provider> above it${doing}${
        (typeof process === 'undefined' ? 'production' : process.env.NODE_ENV) !== 'production'
          ? ': wrap it (or an ancestor) in <resource-provider>, or provide controllerContext to it'
          : ''
      }.`,
    );
  }

  hostConnected(): void {
    // A server render that calls connectedCallback stays a render: no timers.
    if (isServer) return;
    watchForLateProviders(this.#host.ownerDocument);
    // A provider that upgrades in the same task still answers in time: only after it is a
    // missing provider an error.
    if (this.#onMissing) this.#check = setTimeout(this.#checkAnswered, 0);
  }

  hostDisconnected(): void {
    clearTimeout(this.#check);
    this.#check = undefined;
    // Reconnecting asks again, and the answer may come from another provider or from none.
    this.#answered = false;
  }

  readonly #checkAnswered = () => {
    this.#check = undefined;
    if (this.#answered) return;
    this.#missing = this.missingError();
    this.#onMissing!();
  };

  /** Stable identity: the context consumer and `ContextRoot` dedupe by it. */
  readonly #onAnswer = (controller: ControllerLike | undefined) => {
    if (!controller || (controller === this.#controller && this.#answered)) return;
    this.#controller = controller;
    this.#answered = true;
    this.#missing = undefined;
    this.#onController?.(controller);
  };
}
