/**
 * The undo log of one memory transaction: every write records how to reverse it, and
 * `rollback` reverses them newest first.
 */
export class UndoLog {
  readonly #steps: (() => void)[] = [];

  /** Sets `table[key]`, remembering what was there. */
  set<V>(table: Map<string, V>, key: string, value: V): void {
    const had = table.has(key);
    const previous = table.get(key);
    this.#steps.push(() => (had ? table.set(key, previous as V) : table.delete(key)));
    table.set(key, value);
  }

  /** Deletes `table[key]`, remembering what was there. */
  delete<V>(table: Map<string, V>, key: string): void {
    if (!table.has(key)) return;
    const previous = table.get(key) as V;
    this.#steps.push(() => table.set(key, previous));
    table.delete(key);
  }

  /** Appends to an array in place (no copy), remembering to pop it. */
  push<V>(list: V[], value: V): void {
    list.push(value);
    this.#steps.push(() => void list.pop());
  }

  /** Restores every table to what it was before the first write. */
  rollback(): void {
    for (const step of this.#steps.reverse()) step();
    this.#steps.length = 0;
  }
}
