// Test elements that read one endpoint through ResourceController and count their renders.
import { LitElement, html, type TemplateResult } from 'lit';
import type { EndpointLike } from '../../core/protocol/types.js';
import { ResourceController, type ReadParams } from '../resource-controller.js';

let defined = 0;

/** A reader element class: `params` (null skips), `renders`, `reader`. */
export interface Reader<E extends EndpointLike> extends LitElement {
  params: ReadParams<E> | null;
  renders: number;
  readonly reader: ResourceController<E>;
}

/**
 * Defines a fresh custom element that reads `endpoint` (or the hook) with its `params` property
 * and renders `show(value)`; returns its tag name.
 */
export function defineReader<E extends EndpointLike>(
  endpoint: E | (() => E),
  show: (value: NonNullable<Awaited<ReturnType<E>>>) => TemplateResult | string,
): string {
  const tag = `test-reader-${++defined}`;
  class ReaderElement extends LitElement {
    params: ReadParams<E> | null = null;
    renders = 0;
    readonly reader = new ResourceController<E>(
      this,
      endpoint as E,
      () => this.params as ReadParams<E> | null,
    );
    protected override createRenderRoot() {
      return this;
    }
    override render() {
      this.renders++;
      return this.reader.render({
        pending: () => html`<p class="pending">pending</p>`,
        complete: (value) => html`<div class="complete">${show(value as never)}</div>`,
        error: (error) => html`<p class="error">${(error as Error).message}</p>`,
      });
    }
  }
  customElements.define(tag, ReaderElement);
  return tag;
}

/** Makes a reader element of `tag` reading `params`. */
export function reader<E extends EndpointLike>(
  tag: string,
  params: ReadParams<E> | null,
): Reader<E> {
  const element = document.createElement(tag) as Reader<E>;
  element.params = params;
  return element;
}

/** The element's visible text, whitespace collapsed. */
export function textOf(element: Element): string {
  return (element.textContent ?? '').replace(/\s+/g, ' ').trim();
}

/** Waits until `check` passes (or throws its last failure after `timeout` ms). */
export async function until(check: () => void, timeout = 2000): Promise<void> {
  const start = performance.now();
  for (;;) {
    try {
      check();
      return;
    } catch (error) {
      if (performance.now() - start > timeout) throw error;
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  }
}

/** Like `until`, for a check that awaits (one that asks a server, say); 4 s unless told. */
export async function eventually(check: () => unknown, timeout = 4000): Promise<void> {
  const start = performance.now();
  for (;;) {
    try {
      await check();
      return;
    } catch (error) {
      if (performance.now() - start > timeout) throw error;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }
}
