// refetch(): a new request even when an identical one is in flight.
import { describe, it } from 'node:test';
import { strict as assert } from 'node:assert';
import { Entity } from '../schema/entity.js';
import { createResource } from '../rest/create-resource.js';
import { flush } from './test-utils/fake-fetch.js';
import { failOnUnhandledRejection, setup } from './test-utils/harness.js';

failOnUnhandledRejection();

class Profile extends Entity {
  id = '';
  name = '';
  pk() {
    return this.id;
  }
  static key = 'Profile';
}

const prefix = 'https://api.test';
const ProfileResource = createResource({
  urlPrefix: prefix,
  path: '/profiles/:id',
  schema: Profile,
});

describe('Controller.refetch', () => {
  it('sends a second request while the first is in flight; fetch would have joined it', async () => {
    const { controller, server } = setup();
    const first = controller.fetch(ProfileResource.get, { id: 1 });
    const joined = controller.fetch(ProfileResource.get, { id: 1 });
    await flush();
    assert.equal(server.calls.length, 1);
    const forced = controller.refetch(ProfileResource.get, { id: 1 });
    await flush();
    assert.equal(server.calls.length, 2);
    // The newer request answers first; the older answer, arriving after it, is dropped.
    const older = server.take(`GET ${prefix}/profiles/1`);
    const newer = server.take(`GET ${prefix}/profiles/1`);
    newer.respond(200, { id: '1', name: 'new' });
    assert.equal(((await forced) as Profile).name, 'new');
    older.respond(200, { id: '1', name: 'old' });
    await Promise.all([first, joined]);
    assert.equal(
      (controller.getResponse(ProfileResource.get, { id: 1 }).data as Profile).name,
      'new',
    );
  });
});
