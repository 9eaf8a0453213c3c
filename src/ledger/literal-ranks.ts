/**
 * Many literal strings in one automaton (Aho–Corasick, over UTF-16 code units): a single
 * pass over a text finds the smallest rank among the literals it contains, however many
 * literals there are. The compiled rulebook ranks its literal patterns by decision order.
 */
const ASCII = 128;

export class LiteralRanks {
  private readonly edges: Map<number, number>[] = [new Map()];
  private readonly fallback: number[] = [0];
  /** The smallest rank of a literal ending at this state, or at any state its fallbacks reach. */
  private readonly ranks: number[] = [Infinity];
  /**
   * Every state's next state for each ASCII code unit, fallbacks followed in advance
   * (`ASCII * state + code`): the descriptions rules read are nearly all ASCII, and an
   * array read per character costs a fraction of a map lookup and a fallback walk.
   */
  private ascii = new Int32Array(ASCII);
  private built = false;

  get size(): number {
    return this.edges.length - 1;
  }

  add(literal: string, rank: number): void {
    let state = 0;
    for (let i = 0; i < literal.length; i++) {
      const code = literal.charCodeAt(i);
      let next = this.edges[state]!.get(code);
      if (next === undefined) {
        next = this.edges.length;
        this.edges.push(new Map());
        this.fallback.push(0);
        this.ranks.push(Infinity);
        this.edges[state]!.set(code, next);
      }
      state = next;
    }
    this.ranks[state] = Math.min(this.ranks[state]!, rank);
    this.built = false;
  }

  /** The smallest rank among the literals `text` contains; Infinity for none. */
  smallestIn(text: string): number {
    if (!this.built) this.build();
    let state = 0;
    let smallest = Infinity;
    for (let i = 0; i < text.length; i++) {
      const code = text.charCodeAt(i);
      if (code < ASCII) {
        state = this.ascii[ASCII * state + code]!;
      } else {
        let next = this.edges[state]!.get(code);
        while (next === undefined && state !== 0) {
          state = this.fallback[state]!;
          next = this.edges[state]!.get(code);
        }
        state = next ?? 0;
      }
      if (this.ranks[state]! < smallest) smallest = this.ranks[state]!;
    }
    return smallest;
  }

  private build(): void {
    const queue: number[] = [];
    for (const child of this.edges[0]!.values()) {
      this.fallback[child] = 0;
      queue.push(child);
    }
    for (let head = 0; head < queue.length; head++) {
      const state = queue[head]!;
      for (const [code, child] of this.edges[state]!) {
        let f = this.fallback[state]!;
        while (f !== 0 && !this.edges[f]!.has(code)) f = this.fallback[f]!;
        const target = this.edges[f]!.get(code);
        this.fallback[child] = target !== undefined && target !== child ? target : 0;
        this.ranks[child] = Math.min(this.ranks[child]!, this.ranks[this.fallback[child]!]!);
        queue.push(child);
      }
    }
    // In breadth-first order a state's fallback, being shallower, has its row already.
    this.ascii = new Int32Array(ASCII * this.edges.length);
    for (const state of [0, ...queue]) {
      for (let code = 0; code < ASCII; code++) {
        const next = this.edges[state]!.get(code);
        this.ascii[ASCII * state + code] = next ?? (state === 0 ? 0 : this.ascii[ASCII * this.fallback[state]! + code]!);
      }
    }
    this.built = true;
  }
}
