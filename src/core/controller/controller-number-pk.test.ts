// docs/guide/entities.md, "Number ids": a pk of 3 and one of '3' are one record and one cache key.
import { describe, it } from 'node:test';
import { strict as assert } from 'node:assert';
import { Entity } from '../schema/entity.js';
import { createResource } from '../rest/create-resource.js';
import { fakeFetch, json } from '../rest/test-utils/fake-fetch.js';
import { Controller } from './controller.js';

class Ticket extends Entity {
  id = 0;
  title = '';
  pk() {
    return this.id;
  }
  static override key = 'Ticket';
}

const TicketResource = createResource({ path: '/api/tickets/:id', schema: Ticket });

describe('number and string pks', () => {
  it('3 and "3" are one entity, one cache key and one request', async () => {
    const fake = fakeFetch(({ method }) =>
      method === 'PATCH'
        ? json({ id: '3', title: 'patched' })
        : json(method === 'GET' ? [{ id: 3, title: 'listed' }] : {}),
    );
    const controller = new Controller({ fetch: fake.fetch });
    assert.equal(TicketResource.get.key({ id: 3 }), TicketResource.get.key({ id: '3' }));

    await controller.fetch(TicketResource.getList);
    const listed = controller.getResponse(TicketResource.getList).data!;
    assert.equal(listed.length, 1);
    assert.equal(listed[0]!.id, 3, 'the field keeps what the server sent');

    // The server answers with the id as a string: the same record changes.
    await controller.fetch(TicketResource.partialUpdate, { id: 3 }, { title: 'patched' });
    const after = controller.getResponse(TicketResource.getList).data!;
    assert.deepEqual(
      after.map((ticket) => [ticket.id, ticket.title]),
      [['3', 'patched']],
    );
    assert.deepEqual(Object.keys(controller.getState().entities.Ticket!), ['3']);

    controller.invalidate(Ticket, 3);
    assert.deepEqual(controller.getResponse(TicketResource.getList).data, []);
    assert.deepEqual(
      fake.calls.map(({ method, url }) => `${method} ${url}`),
      ['GET /api/tickets', 'PATCH /api/tickets/3'],
    );
  });
});
