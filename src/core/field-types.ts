/**
 * Field types: `static schema = { created: Date }` reads the ISO text a server sends as a `Date`;
 * a class with a static `fromJSON(value)`, or a function of the value, converts any field. The
 * store keeps the JSON value (a `Date` written in code is kept as its ISO text), so every state
 * round trip gives the same values back. Loaded by `resource-elements/fields`, so apps without
 * field types do not carry it.
 */
import { fieldTypes } from './schema/steps.js';
import type { SchemaInstance } from './schema/types.js';
import { describeValue } from './util/describe.js';
import { once } from './util/own.js';

fieldTypes.steps = once(
  // Typed loosely: Date, a class and a function are each called their own way.
  (type: any): SchemaInstance => ({
    normalize(input: any, _parent, _key, _args, _visit, { fail }) {
      input = input.toJSON?.() ?? input;
      if (type === Date && isNaN(Date.parse(input))) {
        fail(`Expected a date, got ${describeValue(input)}`);
      }
      return input;
    },
    denormalize: (input) =>
      type.fromJSON ? type.fromJSON(input) : type.prototype ? new type(input) : type(input),
  }),
);
