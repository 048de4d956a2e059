/**
 * `resource-elements/forms`: `fieldErrors(error)`, the field messages of a failed request (Django
 * REST Framework, FastAPI/pydantic, Rails, Laravel, express-validator, RFC 9457 problem details)
 * in one shape a form shows beside its inputs. Its own entry, so apps without forms do not pay
 * for it.
 * @module resource-elements/forms
 */
export { fieldErrorParsers, fieldErrors } from './field-errors.js';
export type { FieldErrorParser, FieldErrors } from './field-errors.js';
