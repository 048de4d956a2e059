// Listeners, managers and observers that call back into the Controller while they are told of a
// change, and the Controller's own lifecycle (construction, dispose) around them.
import { describe, it } from 'node:test';
import { strict as assert } from 'node:assert';
import { todoEndpoints } from './test-utils/entities.js';
import { failOnUnhandledRejection, setup } from './test-utils/harness.js';

failOnUnhandledRejection();

describe('events listeners that call back in', () => {
  it('a listener removed by an earlier listener of the same event is not called with it', () => {
    const { controller } = setup();
    const { get } = todoEndpoints();
    const heard: string[] = [];
    let removeSecond = (): void => {};
    controller.events.subscribe(() => {
      heard.push('first');
      removeSecond();
    });
    removeSecond = controller.events.subscribe(() => heard.push('second'));
    controller.setResponse(get, { id: '1' }, { id: '1' });
    controller.setResponse(get, { id: '2' }, { id: '2' });
    assert.deepEqual(heard, ['first', 'first']);
  });
});
