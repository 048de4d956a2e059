// Type tests: a ResponseObserver takes its read's arguments as controller.fetch does, checked
// against the endpoint's parameters.
import { ResponseObserver } from './response-observer.js';
import type { Controller } from './controller.js';
import type { EndpointLike } from '../protocol/types.js';

declare const controller: Controller;
declare const get: EndpointLike<[params: { id: string }], { id: string }>;

const observer = new ResponseObserver<typeof get>(controller);
observer.setRead(get, { id: '1' });
observer.setRead(null);
// @ts-expect-error the params of the endpoint, not an array of them
observer.setRead(get, [{ id: '1' }]);
// @ts-expect-error the endpoint's params are required
observer.setRead(get);
// @ts-expect-error an id is a string
observer.setRead(get, { id: 1 });
export const same: ResponseObserver<typeof get> = controller.observe(get, { id: '2' });
