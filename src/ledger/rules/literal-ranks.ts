/**
 * Many literal strings in one automaton (Aho–Corasick, over UTF-16 code units): a single
 * pass over a text finds the smallest rank among the literals it contains, however many
 * literals there are, and which of the watched literals it contains. The compiled
 * rulebook ranks its literal patterns by decision order, and watches the pieces its other
 * patterns' prefilters name.
 */
const ASCII = 128;

export class LiteralRanks {
  private readonly edges: Map<number, number>[] = [new Map()];
  private readonly fallback: number[] = [0];
  /** The smallest rank of a literal ending at this state, or at any state its fallbacks reach. */
  private readonly ranks: number[] = [Infinity];
  /** The keys of the watched literals ending at each state. */
  private readonly keys: number[][] = [[]];
  /** ...and at any state its fallbacks reach (built). */
  private outputs: number[][] = [];
  private readonly watchedKeys = new Map<string, number>();
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

  /** How many literals are watched: the keys `watch` hands out are below it. */
  get watched(): number {
    return this.watchedKeys.size;
  }

  add(literal: string, rank: number): void {
    const state = this.stateOf(literal);
    this.ranks[state] = Math.min(this.ranks[state]!, rank);
    this.built = false;
  }

  /** Watches a literal: `scan` marks its key (the same for the same literal) wherever a text contains it. */
  watch(literal: string): number {
    let key = this.watchedKeys.get(literal);
    if (key === undefined) {
      key = this.watchedKeys.size;
      this.watchedKeys.set(literal, key);
      this.keys[this.stateOf(literal)]!.push(key);
      this.built = false;
    }
    return key;
  }

  private stateOf(literal: string): number {
    let state = 0;
    for (let i = 0; i < literal.length; i++) {
      const code = literal.charCodeAt(i);
      let next = this.edges[state]!.get(code);
      if (next === undefined) {
        next = this.edges.length;
        this.edges.push(new Map());
        this.fallback.push(0);
        this.ranks.push(Infinity);
        this.keys.push([]);
        this.edges[state]!.set(code, next);
      }
      state = next;
    }
    return state;
  }

  /** The smallest rank among the literals `text` contains; Infinity for none. */
  smallestIn(text: string): number {
    if (!this.built) this.build();
    let state = 0;
    let smallest = Infinity;
    for (let i = 0; i < text.length; i++) {
      const code = text.charCodeAt(i);
      state = code < ASCII ? this.ascii[ASCII * state + code]! : this.step(state, code);
      if (this.ranks[state]! < smallest) smallest = this.ranks[state]!;
    }
    return smallest;
  }

  /**
   * `smallestIn`, and `found[key] = stamp` for the key of every watched literal `text`
   * contains (a caller that changes the stamp per text never clears `found`); each key
   * found is pushed once onto `newlyFound`, when given.
   */
  scan(text: string, found: Uint32Array, stamp: number, newlyFound?: number[]): number {
    if (!this.built) this.build();
    let state = 0;
    let smallest = Infinity;
    for (let i = 0; i < text.length; i++) {
      const code = text.charCodeAt(i);
      state = code < ASCII ? this.ascii[ASCII * state + code]! : this.step(state, code);
      if (this.ranks[state]! < smallest) smallest = this.ranks[state]!;
      const out = this.outputs[state]!;
      for (let k = 0; k < out.length; k++) {
        const key = out[k]!;
        if (found[key] !== stamp) {
          found[key] = stamp;
          newlyFound?.push(key);
        }
      }
    }
    return smallest;
  }

  /** The move on a code unit beyond ASCII: the map, fallbacks walked. */
  private step(state: number, code: number): number {
    let next = this.edges[state]!.get(code);
    while (next === undefined && state !== 0) {
      state = this.fallback[state]!;
      next = this.edges[state]!.get(code);
    }
    return next ?? 0;
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
    // In breadth-first order a state's fallback, being shallower, has its row and its outputs already.
    const none: number[] = [];
    this.outputs = new Array<number[]>(this.edges.length);
    this.outputs[0] = this.keys[0]!.length > 0 ? this.keys[0]! : none;
    for (const state of queue) {
      const own = this.keys[state]!;
      const inherited = this.outputs[this.fallback[state]!]!;
      this.outputs[state] = own.length === 0 ? inherited : inherited.length === 0 ? own : [...own, ...inherited];
    }
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
