// Type tests: a schema.Union's type function gets the value, its parent and its key there.
import type { Equal, Expect } from '../test-utils/type-assert.js';
import type { SchemaAttribute } from '../index.js';
import * as schema from './namespace.js';
import { Todo, User } from '../test-utils/entities.js';

type TypeFunction = Extract<ConstructorParameters<typeof schema.Union>[1], Function>;

export type Cases = [
  Expect<Equal<TypeFunction, SchemaAttribute>>,
  Expect<Equal<Parameters<TypeFunction>, [Record<string, unknown>, unknown, string | undefined]>>,
];

export const byParent = new schema.Union({ user: User, todo: Todo }, (input, parent, key) =>
  key === undefined ? String(input.kind) : String((parent as Record<string, unknown>).kind),
);
// A function of the input alone is one too.
export const byInput = new schema.Union({ user: User }, (input) => String(input.type));

// @ts-expect-error the type function names a member: it returns a string
export const wrong = new schema.Union({ user: User }, () => 1);
