// Mounting a template under a <resource-provider> that holds a given Controller, and waiting for
// the work a read sets off to settle: what the Lit layer's browser tests share.
import { fixture, html, aTimeout } from '@open-wc/testing';
import { render } from 'lit';
import '../define-provider.js';
import type { ResourceProvider } from '../resource-provider.js';
import type { Controller } from '../../core/controller/controller.js';

/**
 * Waits a few macrotasks: the endpoint builds its request before calling fetch, the response body
 * is read, listeners request updates, and Lit renders in microtasks after them.
 */
export async function settle(): Promise<void> {
  for (let i = 0; i < 4; i++) await aTimeout(0);
}

/** Renders `template` into a provider of `controller`, attaches it, and lets it settle. */
export async function mount(controller: Controller, template: unknown): Promise<ResourceProvider> {
  const provider = document.createElement('resource-provider');
  provider.controller = controller;
  render(template, provider);
  const host = await fixture<HTMLDivElement>(html`<div></div>`);
  host.append(provider);
  await settle();
  return provider;
}

/** An element's text without Lit's comment markers. */
export const text = (el: Element): string => el.textContent!.replace(/<!--.*?-->/g, '').trim();
