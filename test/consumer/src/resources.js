// The entity and endpoints, as the guide (docs/guide/) writes them (plain JavaScript, so that every
// bundler takes the file as it is).
import { Entity, createResource } from 'resource-elements';

export class Item extends Entity {
  id = '';
  name = '';
  pk() {
    return this.id;
  }
  static key = 'Item';
}

export const ItemResource = createResource({ path: '/api/items/:id', schema: Item });
