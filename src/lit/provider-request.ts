import { ContextRoot } from '@lit/context';

function DEV(): boolean {
  return (typeof process === 'undefined' ? 'production' : process.env.NODE_ENV) !== 'production';
}

// What ProviderLink and the framework-free bindings (resource-elements/elements) share to reach a
// provider. No Lit here (only @lit/context's protocol classes), so a page without Lit hosts does
// not bundle Lit for it.

// One ContextRoot per document, shared by every copy of this module, so a request is re-sent once.
const ROOT = Symbol.for('resource-elements.context-root');

/**
 * The error for an element that needed a Controller and found no provider above it.
 * @example missingProvider(element, ' to run a mutation');
 */
export const missingProvider = (element: Element, doing = ''): Error =>
  new Error(
    `<${element.localName}> found no <resource-provider> above it${doing}${
      DEV()
        ? ': wrap it (or an ancestor) in <resource-provider>, or provide controllerContext to it'
        : ''
    }.`,
  );

/**
 * Makes sure `document` re-sends a subscribing request that found no provider when a provider
 * announces itself (a provider defined or connected later).
 * @example watchLateProviders(element.ownerDocument);
 */
export const watchLateProviders = (document: Document & { [ROOT]?: ContextRoot }): void =>
  // Attaching again adds nothing: the DOM ignores a listener already added.
  (document[ROOT] ||= new ContextRoot()).attach(document as never);
