/**
 * The field messages of a failed request, in one shape a form shows beside its inputs, from the
 * bodies the common frameworks answer with. A parser per body shape; the first that recognises a
 * body gives the messages.
 */
import { NetworkError } from '../core/index.js';

/**
 * Messages by field. A nested field is named by its path (`author.name`); messages that belong to
 * no field are under `''`.
 */
export type FieldErrors = Record<string, string[]>;

/**
 * Reads one framework's error body: its messages by field, or undefined when the body is not
 * of its shape.
 */
export type FieldErrorParser = (body: unknown) => FieldErrors | undefined;

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Adds `message` (text only) under `field`. */
function add(errors: FieldErrors, field: string, message: unknown): void {
  if (typeof message === 'string' && message) (errors[field] ??= []).push(message);
}

/** `{ field: ['message'] }` or `{ field: 'message' }`, nested objects as paths (`a.b`). */
function byField(value: unknown, errors: FieldErrors = {}, path = ''): FieldErrors {
  if (Array.isArray(value) && value.every((item) => typeof item === 'string')) {
    for (const message of value) add(errors, path, message);
  } else if (typeof value === 'string') add(errors, path, value);
  else if (Array.isArray(value)) {
    // A list serializer: one entry per item, by index.
    value.forEach((item, index) => byField(item, errors, path ? `${path}.${index}` : `${index}`));
  } else if (isRecord(value)) {
    for (const [key, item] of Object.entries(value)) {
      const field =
        key === 'non_field_errors' || key === 'base' ? path : path ? `${path}.${key}` : key;
      byField(item, errors, field);
    }
  }
  return errors;
}

/** A list of `{ <field>, <message> }` entries, each read by `field` and `message`. */
function entries(
  list: unknown,
  field: (entry: Record<string, unknown>) => unknown,
  message: (entry: Record<string, unknown>) => unknown,
): FieldErrors | undefined {
  if (!Array.isArray(list) || !list.every(isRecord)) return undefined;
  const errors: FieldErrors = {};
  for (const entry of list) {
    const name = field(entry);
    add(
      errors,
      Array.isArray(name) ? name.join('.') : typeof name === 'string' ? name : '',
      message(entry),
    );
  }
  return errors;
}

/** Where pydantic says a value came from: not part of the field's name. */
const LOCATIONS = new Set(['body', 'query', 'path', 'header', 'cookie']);

/**
 * The parsers tried in order. Add your API's in front:
 * @example
 * fieldErrorParsers.unshift((body) =>
 *   Array.isArray((body as { problems?: unknown })?.problems)
 *     ? Object.fromEntries((body as { problems: { at: string; text: string }[] }).problems.map((p) => [p.at, [p.text]]))
 *     : undefined,
 * );
 */
export const fieldErrorParsers: FieldErrorParser[] = [
  // FastAPI / pydantic: { detail: [{ loc: ['body', 'title'], msg }] }
  (body) =>
    isRecord(body) && Array.isArray(body.detail)
      ? entries(
          body.detail,
          ({ loc }) =>
            Array.isArray(loc) ? loc.filter((part, i) => !(i === 0 && LOCATIONS.has(part))) : loc,
          ({ msg }) => msg,
        )
      : undefined,
  // RFC 9457 problem details: `invalid-params` (RFC 7807's example) or `errors` with JSON pointers.
  (body) =>
    isRecord(body) && Array.isArray(body['invalid-params'])
      ? entries(
          body['invalid-params'],
          ({ name }) => name,
          ({ reason }) => reason,
        )
      : undefined,
  // `errors` as a list: problem+json's `{ pointer, detail }`, JSON:API's `{ source: { pointer },
  // detail }`, express-validator's `{ path, msg }`.
  (body) =>
    isRecord(body) && Array.isArray(body.errors)
      ? body.errors.every((item) => typeof item === 'string')
        ? byField(body.errors)
        : entries(
            body.errors,
            ({
              source,
              pointer = isRecord(source) ? source.pointer : undefined,
              path,
              param,
              field,
            }) =>
              typeof pointer === 'string'
                ? pointer
                    .replace(/^#?\/(data\/attributes\/)?/, '')
                    .split('/')
                    .join('.')
                : (path ?? param ?? field),
            ({ detail, msg, message }) => detail ?? msg ?? message,
          )
      : undefined,
  // Laravel, and Rails rendering `{ errors: @todo.errors }`: { errors: { title: [...] } }
  // (Laravel adds a `message`).
  (body) => (isRecord(body) && isRecord(body.errors) ? byField(body.errors) : undefined),
  // Django REST Framework, and Rails' scaffold rendering `@todo.errors` as it is:
  // { title: ['This field may not be blank.'] }, nested serializers as objects. A top-level text
  // (a 401's `detail`, a problem's `title`) is no field's.
  (body) =>
    isRecord(body)
      ? byField(Object.fromEntries(Object.entries(body).filter(([, v]) => typeof v != 'string')))
      : undefined,
];

/** The field messages of a failure's body, by the first of `fieldErrorParsers` that finds some. */
function fromBody(body: unknown): FieldErrors {
  for (const parse of fieldErrorParsers) {
    const errors = parse(body);
    if (errors && Object.keys(errors).length > 0) return errors;
  }
  return {};
}

/**
 * The field messages of `error` (a `NetworkError` whose body one of `fieldErrorParsers` reads),
 * `{}` when there are none: a form shows `errors[name]` beside each input.
 * @example
 * try {
 *   await controller.fetch(TodoResource.getList.push, { title: '' });
 * } catch (error) {
 *   this.errors = fieldErrors(error); // { title: ['This field may not be blank.'] }
 * }
 */
export function fieldErrors(error: unknown): FieldErrors {
  return error instanceof NetworkError ? fromBody(error.body) : {};
}

// With this entry imported, a failure's message reads its field messages, not its JSON:
// `POST /api/todos/ failed: 400 Bad Request: title: This field may not be blank.`
NetworkError.bodyText = (body) =>
  Object.entries(fromBody(body))
    .map(([field, messages]) => `${field && `${field}: `}${messages.join(' ')}`)
    .join('; ') || undefined;
