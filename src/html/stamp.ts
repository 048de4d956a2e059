function DEV(): boolean {
  return (typeof process === 'undefined' ? 'production' : process.env.NODE_ENV) !== 'production';
}

// Templates stamped into the page and filled by field path. What the page names is only ever a
// path to read and an attribute to write; values go in as text or attribute values, never as
// markup, and never into an attribute that runs code.

/** One place of a stamped template that shows a field: the element's text, or one attribute. */
interface Field {
  readonly element: Element;
  /** `user.name` as `['user', 'name']`; empty for the value itself. */
  readonly path: readonly string[];
  /** The attribute written; null for the text. */
  readonly attribute: string | null;
}

/** A template's clone in the page: its top-level nodes and the fields they show. */
export interface Stamp {
  readonly nodes: readonly ChildNode[];
  readonly fields: readonly Field[];
}

const TEXT = 'data-field';
const ATTRIBUTE = 'data-field-';

/** Attributes whose value is a URL a browser may run as script (`javascript:`). */
const URLS = new Set(['href', 'src', 'action', 'formaction', 'xlink:href']);

/** Attributes whose element property is the live state, which the attribute only starts. */
const LIVE = new Set(['value', 'checked', 'selected']);

/**
 * Never filled: a script's text and attributes (its text runs, its `src` loads code), event
 * handlers (their value runs) and `srcdoc` (parsed as a document).
 */
const refused = (element: Element, attribute: string | null) =>
  element.localName === 'script' ||
  (attribute !== null && (/^on/i.test(attribute) || attribute.toLowerCase() === 'srcdoc'));

/** True for a URL that runs script, read as the URL parser reads it (leading controls and tabs ignored). */
function runsScript(url: string): boolean {
  let start = 0;
  while (start < url.length && url.charCodeAt(start) <= 32) start++;
  return /^javascript:/i.test(url.slice(start).replace(/[\t\n\r]/g, ''));
}

/** The value at `path` in `source`; undefined where a step finds nothing. */
function at(source: unknown, path: readonly string[]): unknown {
  let value = source;
  for (const key of path)
    value = value == null ? undefined : (value as Record<string, unknown>)[key];
  return value;
}

/** What an attribute holds for `value`: null for none. */
function attributeValue(element: Element, name: string, value: unknown): string | null {
  // A boolean field sets or removes the attribute, and so does any field for an attribute the
  // element has as a boolean property (hidden, disabled, checked…); ARIA's states are the words.
  const flag =
    !name.startsWith('aria-') &&
    (typeof value === 'boolean' || typeof (element as never)[name] === 'boolean');
  if (flag) return value ? '' : null;
  return value == null || typeof value === 'function' ? null : String(value);
}

function write(field: Field, value: unknown): void {
  const { element, attribute } = field;
  if (attribute === null) {
    const text = value == null || typeof value === 'function' ? '' : String(value);
    if (element.textContent !== text) element.textContent = text;
    return;
  }
  let next = attributeValue(element, attribute, value);
  if (next !== null && URLS.has(attribute) && runsScript(next)) {
    if (DEV()) {
      console.warn(
        `${TEXT}-${attribute}="${field.path.join('.')}" gave a javascript: URL; the attribute is left out.`,
      );
    }
    next = null;
  }
  // Unchanged: the element keeps what the user did to it (a value typed, a box ticked).
  if (element.getAttribute(attribute) === next) return;
  if (next === null) element.removeAttribute(attribute);
  else element.setAttribute(attribute, next);
  if (LIVE.has(attribute) && attribute in element) {
    (element as unknown as Record<string, unknown>)[attribute] =
      typeof (element as never)[attribute] === 'boolean' ? next !== null : (next ?? '');
  }
}

/**
 * Writes `source`'s fields into a stamp's elements.
 * @example fill(stamp, todo);
 */
export function fill(stamp: Stamp, source: unknown): void {
  for (const field of stamp.fields) write(field, at(source, field.path));
}

/**
 * Clones `template` into `document`, finds the fields its elements show (`data-field="title"`,
 * `data-field-href="url"`) and fills them from `source`.
 * @example const stamp = stampTemplate(document, template, todo);
 */
export function stampTemplate(
  document: Document,
  template: HTMLTemplateElement,
  source: unknown,
): Stamp {
  // importNode, not cloneNode: the clone belongs to this document, so custom elements in it upgrade.
  const fragment = document.importNode(template.content, true);
  const fields: Field[] = [];
  const walker = document.createTreeWalker(fragment, NodeFilter.SHOW_ELEMENT);
  for (let element = walker.nextNode() as Element | null; element;) {
    for (const { name, value } of element.attributes) {
      const attribute =
        name === TEXT
          ? null
          : name.startsWith(ATTRIBUTE)
            ? name.slice(ATTRIBUTE.length)
            : undefined;
      if (attribute === undefined) continue;
      if (refused(element, attribute)) {
        if (DEV()) {
          console.warn(
            `${name}="${value}" is left out: data never goes into a script, an event handler or srcdoc.`,
          );
        }
        continue;
      }
      fields.push({ element, path: value === '' ? [] : value.split('.'), attribute });
    }
    element = walker.nextNode() as Element | null;
  }
  const stamp: Stamp = { nodes: [...fragment.childNodes], fields };
  fill(stamp, source);
  return stamp;
}
