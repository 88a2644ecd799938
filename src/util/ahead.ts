/**
 * Work a caller lets run ahead of it, up to a total weight: `admit` counts
 * a piece as pending until it settles, and waits while the pending weight
 * is over the limit. (Memory, mostly: what the pending pieces hold.)
 */
export class Ahead {
  readonly #pending = new Set<Promise<void>>();
  #weight = 0;

  constructor(readonly limit: number) {}

  get weight(): number {
    return this.#weight;
  }

  async admit(work: Promise<unknown>, weight: number): Promise<void> {
    this.#weight += weight;
    const settled: Promise<void> = work.then(
      () => this.#settle(settled, weight),
      () => this.#settle(settled, weight),
    );
    this.#pending.add(settled);
    while (this.#weight > this.limit) await Promise.race(this.#pending);
  }

  #settle(piece: Promise<void>, weight: number): void {
    this.#pending.delete(piece);
    this.#weight -= weight;
  }
}
