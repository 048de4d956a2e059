/** What the page needs from each library's app: the same list of rows, and the same mutations. */
export interface BenchApp {
  /** Puts the app (provider + list) into `root`; returns the list element. */
  mount(root: HTMLElement): HTMLElement;
  /** Changes one item's title through the library's mutation path. */
  update(id: string, title: string): Promise<unknown>;
  /** Creates an item, to land at the end of the list. */
  create(title: string): Promise<unknown>;
  /** Deletes an item. */
  remove(id: string): Promise<unknown>;
}

/** The id of the element that shows item `id` inside the list's shadow root. */
export const rowElementId = (id: string) => `row-${id}`;
