// fieldErrors: one shape for the error bodies of the common frameworks, as each sends them.
import { afterEach, describe, it } from 'node:test';
import { strict as assert } from 'node:assert';
import { NetworkError } from '../core/index.js';
import { fieldErrorParsers, fieldErrors } from './field-errors.js';

const failed = (status: number, body: unknown, type = 'application/json') =>
  new NetworkError({
    method: 'POST',
    url: 'https://api.test/todos/',
    response: new Response(null, { status, headers: { 'content-type': type } }),
    body,
  });

describe('fieldErrors', () => {
  it('Django REST Framework: fields, nested serializers and non_field_errors', () => {
    const error = failed(400, {
      title: ['This field may not be blank.'],
      author: { name: ['Ensure this field has no more than 20 characters.'] },
      non_field_errors: ['The fields title, owner must make a unique set.'],
    });
    assert.deepEqual(fieldErrors(error), {
      title: ['This field may not be blank.'],
      'author.name': ['Ensure this field has no more than 20 characters.'],
      '': ['The fields title, owner must make a unique set.'],
    });
  });

  it("DRF's lone detail (401, 404) is no field's", () => {
    assert.deepEqual(fieldErrors(failed(401, { detail: 'Invalid token.' })), {});
  });

  it('FastAPI / pydantic 422: loc without its location, msg', () => {
    const error = failed(422, {
      detail: [
        { loc: ['body', 'title'], msg: 'ensure this value has at least 1 characters', type: 'x' },
        { loc: ['body', 'tags', 0], msg: 'str type expected', type: 'y' },
        { loc: ['query', 'limit'], msg: 'value is not a valid integer', type: 'z' },
      ],
    });
    assert.deepEqual(fieldErrors(error), {
      title: ['ensure this value has at least 1 characters'],
      'tags.0': ['str type expected'],
      limit: ['value is not a valid integer'],
    });
  });

  it("Rails rendering { errors: @todo.errors }: fields, base as the form's own", () => {
    const error = failed(422, { errors: { title: ["can't be blank"], base: ['Locked'] } });
    assert.deepEqual(fieldErrors(error), { title: ["can't be blank"], '': ['Locked'] });
  });

  it("Rails' scaffold rendering @todo.errors as it is: { title: [...] }", () => {
    const error = failed(422, { title: ["can't be blank"], base: ['Locked'] });
    assert.deepEqual(fieldErrors(error), { title: ["can't be blank"], '': ['Locked'] });
  });

  it('Laravel: message and errors', () => {
    const error = failed(422, {
      message: 'The title field is required.',
      errors: { title: ['The title field is required.'] },
    });
    assert.deepEqual(fieldErrors(error), { title: ['The title field is required.'] });
  });

  it('RFC 9457 problem details: errors with JSON pointers, and invalid-params', () => {
    const pointers = failed(
      422,
      {
        type: 'https://example.com/probs/validation',
        title: 'Your request is not valid.',
        errors: [{ detail: 'must be a positive integer', pointer: '#/age' }],
      },
      'application/problem+json',
    );
    assert.deepEqual(fieldErrors(pointers), { age: ['must be a positive integer'] });
    const params = failed(
      400,
      { title: 'Invalid', 'invalid-params': [{ name: 'color', reason: "must be 'green'" }] },
      'application/problem+json',
    );
    assert.deepEqual(fieldErrors(params), { color: ["must be 'green'"] });
  });

  it('JSON:API: errors with source.pointer into the attributes', () => {
    const error = failed(422, {
      errors: [
        { status: '422', source: { pointer: '/data/attributes/title' }, detail: 'is too short' },
      ],
    });
    assert.deepEqual(fieldErrors(error), { title: ['is too short'] });
  });

  it('express-validator: errors with path (v7) or param (v6) and msg', () => {
    const error = failed(400, {
      errors: [
        { type: 'field', path: 'email', msg: 'Invalid value', location: 'body' },
        { param: 'name', msg: 'Required', location: 'body' },
      ],
    });
    assert.deepEqual(fieldErrors(error), { email: ['Invalid value'], name: ['Required'] });
  });

  it('nothing for other errors, non-JSON bodies and bodies of no known shape', () => {
    assert.deepEqual(fieldErrors(new Error('boom')), {});
    assert.deepEqual(fieldErrors(failed(500, '<html>oops</html>', 'text/html')), {});
    assert.deepEqual(fieldErrors(failed(400, { code: 7 })), {});
    assert.deepEqual(fieldErrors(failed(404, { error: 'Not found' })), {});
    const problem = { type: 'about:blank', title: 'Conflict', status: 409, detail: 'Locked' };
    assert.deepEqual(fieldErrors(failed(409, problem, 'application/problem+json')), {});
  });

  describe('another API', () => {
    const mine = (body: unknown) =>
      Array.isArray((body as { problems?: unknown })?.problems)
        ? Object.fromEntries(
            (body as { problems: { at: string; text: string }[] }).problems.map((p) => [
              p.at,
              [p.text],
            ]),
          )
        : undefined;
    afterEach(() => {
      fieldErrorParsers.splice(fieldErrorParsers.indexOf(mine), 1);
    });

    it('a parser added in front reads its shape', () => {
      fieldErrorParsers.unshift(mine);
      const error = failed(400, { problems: [{ at: 'title', text: 'Too short' }] });
      assert.deepEqual(fieldErrors(error), { title: ['Too short'] });
    });
  });
});

describe('with resource-elements/forms imported, a failure reads its field messages', () => {
  const message = (status: number, body: unknown, type?: string) =>
    failed(status, body, type).message;
  it('DRF, FastAPI, Rails, Laravel, express-validator and problem+json read cleanly', () => {
    const drf = { title: ['This field may not be blank.'], non_field_errors: ['Not unique.'] };
    assert.equal(
      message(400, drf),
      'POST https://api.test/todos/ failed: 400: title: This field may not be blank.; Not unique.',
    );
    const pydantic = { detail: [{ loc: ['body', 'title'], msg: 'field required', type: 'x' }] };
    assert.equal(
      message(422, pydantic),
      'POST https://api.test/todos/ failed: 422: title: field required',
    );
    assert.match(
      message(422, { title: ["can't be blank"] }),
      /failed: 422: title: can't be blank$/,
    );
    const laravel = { message: 'The title field is required.', errors: { title: ['Required.'] } };
    assert.match(message(422, laravel), /failed: 422: title: Required\.$/);
    const validator = { errors: [{ type: 'field', msg: 'Invalid value', path: 'title' }] };
    assert.match(message(422, validator), /failed: 422: title: Invalid value$/);
    const problem = {
      type: 'https://example.test/invalid',
      title: 'Invalid request',
      'invalid-params': [{ name: 'age', reason: 'must be a positive integer' }],
    };
    assert.match(
      message(400, problem, 'application/problem+json'),
      /failed: 400: age: must be a positive integer$/,
    );
  });

  it('a body with no field messages reads as before: its detail, else its JSON', () => {
    assert.match(message(401, { detail: 'Invalid token.' }), /failed: 401: Invalid token\.$/);
    assert.match(message(500, { trace: 1 }), /failed: 500: \{"trace":1\}$/);
    assert.match(message(502, 'Bad gateway'), /failed: 502: Bad gateway$/);
  });
});
