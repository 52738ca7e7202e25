/**
 * A growable list of doubles: 8 bytes a value, doubling its capacity when full, so that a run of
 * millions of rows keeps its scores in one typed array instead of millions of boxed numbers.
 */
export class Float64Buffer {
  private data: Float64Array;
  private size = 0;

  /** `initialCapacity` values are reserved up front (default 1024). */
  constructor(initialCapacity = 1024) {
    this.data = new Float64Array(Math.max(1, initialCapacity));
  }

  get length(): number {
    return this.size;
  }

  push(value: number): void {
    if (this.size === this.data.length) this.grow(this.size + 1);
    this.data[this.size++] = value;
  }

  /**
   * Sets `values[index]`, growing the list to `index + 1` values when needed; the values added in
   * between are NaN, read as "nothing here".
   */
  set(index: number, value: number): void {
    if (index >= this.size) {
      if (index >= this.data.length) this.grow(index + 1);
      this.data.fill(Number.NaN, this.size, index);
      this.size = index + 1;
    }
    this.data[index] = value;
  }

  /** `values[index]`, or NaN past the end. */
  get(index: number): number {
    return index < this.size ? (this.data[index] as number) : Number.NaN;
  }

  /** The values, as a view on the buffer: valid until the next push/set, and sorting it sorts them. */
  view(): Float64Array {
    return this.data.subarray(0, this.size);
  }

  private grow(minCapacity: number): void {
    let capacity = this.data.length * 2;
    while (capacity < minCapacity) capacity *= 2;
    const next = new Float64Array(capacity);
    next.set(this.data.subarray(0, this.size));
    this.data = next;
  }
}
