import { ContextRoot } from '@lit/context';

// One root per document, shared by every copy of this module, so a request is re-sent once.
const rooted = Symbol.for('resource-elements.context-root');

type RootedDocument = Document & { [rooted]?: ContextRoot };

/**
 * Makes context requests that nobody answered wait for a provider that connects later (a
 * `<resource-provider>` defined after its children upgraded, or inserted around them). A request
 * that reaches the document found no provider; `ContextRoot` keeps it and sends it again when a
 * provider of the same context announces itself.
 */
export function watchForLateProviders(document: Document): void {
  const target = document as RootedDocument;
  if (target[rooted]) return;
  const root = new ContextRoot();
  root.attach(document as unknown as HTMLElement);
  Object.defineProperty(target, rooted, { value: root });
}
