/**
 * The KV cache of the running batch, in the layout the model takes as `past`: per layer, one key and one value
 * array of shape [rows, kvHeads, cols, headDim], plus a mask [rows, cols] of the columns each row may attend to.
 *
 * Why a shared padded batch, kept between steps: a decode step returns `present` = `past` ++ the new column, for
 * the whole batch. While the batch's membership does not change, that output IS the next step's input: no copy
 * on our side at all (the buffers travel to the engine worker and back as transfers). Copies happen only when
 * membership changes:
 * - a finished or cancelled sequence's row is just masked out (a dead row) and reused by the next sequence that
 *   fits into it (its prefilled columns are written into the row in place);
 * - when no dead row fits, or dead rows / dead columns waste too much compute, the batch is rebuilt: live rows
 *   are copied with only their valid columns, left-aligned.
 * Attention is order-free over cache columns (positions are inside K already, and each row's positions are fed
 * explicitly), so a row's valid columns may sit anywhere as long as the mask marks them.
 */
export interface KvGeometry {
  readonly numLayers: number;
  readonly kvHeads: number;
  readonly headDim: number;
}

/** Caches of freshly prefilled sequences as the prefill run returned them: [n, kvHeads, cols, headDim] per layer;
 *  row i is valid in columns [0, lengths[i]). */
export interface PrefilledKv {
  readonly cols: number;
  readonly keys: readonly Float32Array[];
  readonly values: readonly Float32Array[];
}

export interface NewRow<T> {
  readonly owner: T;
  /** Row of the sequence in the prefill batch. */
  readonly source: number;
  readonly length: number;
}

export class KvBatch<T> {
  rows = 0;
  cols = 0;
  keys: Float32Array[] = [];
  values: Float32Array[] = [];
  /** 1 where a row may attend to a column. */
  mask = new Uint8Array(0);
  /** The sequence in each row; undefined for a dead row. */
  owners: (T | undefined)[] = [];
  /** Valid columns per row, which is also the position of the row's next token. */
  lengths: number[] = [];
  /** How many times the batch was rebuilt (copied); for tests and benchmarks. */
  rebuilds = 0;

  constructor(private readonly geo: KvGeometry) {}

  get liveRows(): number {
    let n = 0;
    for (const o of this.owners) if (o !== undefined) n++;
    return n;
  }

  get maxLength(): number {
    let m = 0;
    for (let r = 0; r < this.rows; r++) if (this.owners[r] !== undefined) m = Math.max(m, this.lengths[r] as number);
    return m;
  }

  rowOf(owner: T): number {
    return this.owners.indexOf(owner);
  }

  /** Masks a row out; its columns are garbage from now on. */
  release(row: number): void {
    this.owners[row] = undefined;
    this.lengths[row] = 0;
    this.mask.fill(0, row * this.cols, (row + 1) * this.cols);
  }

  /**
   * Adds prefilled sequences: each goes into a dead row when its length fits the current columns, else all
   * remaining ones are added by one rebuild.
   */
  admit(prefilled: PrefilledKv, rows: readonly NewRow<T>[]): void {
    const rest: NewRow<T>[] = [];
    for (const n of rows) {
      const free = n.length <= this.cols ? this.owners.indexOf(undefined) : -1;
      if (free < 0) rest.push(n);
      else this.writeRow(free, prefilled, n);
    }
    if (rest.length > 0) this.rebuild(prefilled, rest);
  }

  /**
   * Takes the engine's present tensors after a decode step ([rows, kvHeads, cols + 1, headDim]): the new
   * column is valid for live rows.
   */
  appendColumn(keys: Float32Array[], values: Float32Array[]): void {
    const oldCols = this.cols;
    const cols = oldCols + 1;
    const mask = new Uint8Array(this.rows * cols);
    for (let r = 0; r < this.rows; r++) {
      mask.set(this.mask.subarray(r * oldCols, (r + 1) * oldCols), r * cols);
      if (this.owners[r] !== undefined) {
        mask[r * cols + oldCols] = 1;
        this.lengths[r] = (this.lengths[r] as number) + 1;
      }
    }
    this.keys = keys;
    this.values = values;
    this.cols = cols;
    this.mask = mask;
  }

  /** Forgets everything (after an engine failure the buffers may be gone). */
  reset(): void {
    this.rows = 0;
    this.cols = 0;
    this.keys = [];
    this.values = [];
    this.mask = new Uint8Array(0);
    this.owners = [];
    this.lengths = [];
  }

  /**
   * Rebuilds when dead rows or padding columns cost more than a copy: dead rows are a quarter of the batch, or
   * the columns are more than twice (+32) the longest live row. An empty batch is reset. Returns whether it did.
   */
  compactIfWasteful(): boolean {
    const live = this.liveRows;
    if (live === 0) {
      if (this.rows > 0) this.reset();
      return false;
    }
    const dead = this.rows - live;
    if (dead * 4 >= this.rows || this.cols > 2 * this.maxLength + 32) {
      this.rebuild(undefined, []);
      return true;
    }
    return false;
  }

  private writeRow(row: number, src: PrefilledKv, n: NewRow<T>): void {
    const { kvHeads, headDim } = this.geo;
    for (let l = 0; l < this.geo.numLayers; l++) {
      for (const [dst, from] of [
        [this.keys[l], src.keys[l]],
        [this.values[l], src.values[l]],
      ] as const) {
        for (let h = 0; h < kvHeads; h++) {
          const s = (n.source * kvHeads + h) * src.cols * headDim;
          const d = (row * kvHeads + h) * this.cols * headDim;
          (dst as Float32Array).set((from as Float32Array).subarray(s, s + n.length * headDim), d);
        }
      }
    }
    this.owners[row] = n.owner;
    this.lengths[row] = n.length;
    const base = row * this.cols;
    this.mask.fill(1, base, base + n.length);
    this.mask.fill(0, base + n.length, base + this.cols);
  }

  /** Live rows (valid columns only, left-aligned) followed by the new rows, in fresh arrays. */
  private rebuild(src: PrefilledKv | undefined, added: readonly NewRow<T>[]): void {
    const { numLayers, kvHeads, headDim } = this.geo;
    const keep: number[] = [];
    for (let r = 0; r < this.rows; r++) if (this.owners[r] !== undefined) keep.push(r);
    const rows = keep.length + added.length;
    let cols = 0;
    for (const r of keep) cols = Math.max(cols, this.lengths[r] as number);
    for (const n of added) cols = Math.max(cols, n.length);
    const size = rows * kvHeads * cols * headDim;
    const keys = Array.from({ length: numLayers }, () => new Float32Array(size));
    const values = Array.from({ length: numLayers }, () => new Float32Array(size));
    const mask = new Uint8Array(rows * cols);
    const owners: (T | undefined)[] = [];
    const lengths: number[] = [];
    // Valid columns of each kept row, found once from the mask.
    keep.forEach((r, i) => {
      const validCols: number[] = [];
      for (let c = 0; c < this.cols; c++) if (this.mask[r * this.cols + c] === 1) validCols.push(c);
      for (let l = 0; l < numLayers; l++) {
        for (const [dst, from] of [
          [keys[l], this.keys[l]],
          [values[l], this.values[l]],
        ] as const) {
          for (let h = 0; h < kvHeads; h++) {
            const srcRow = (r * kvHeads + h) * this.cols * headDim;
            const dstRow = (i * kvHeads + h) * cols * headDim;
            validCols.forEach((c, j) => {
              const s = srcRow + c * headDim;
              (dst as Float32Array).set((from as Float32Array).subarray(s, s + headDim), dstRow + j * headDim);
            });
          }
        }
      }
      mask.fill(1, i * cols, i * cols + validCols.length);
      owners.push(this.owners[r]);
      lengths.push(validCols.length);
    });
    added.forEach((n, k) => {
      const i = keep.length + k;
      const s = src as PrefilledKv;
      for (let l = 0; l < numLayers; l++) {
        for (const [dst, from] of [
          [keys[l], s.keys[l]],
          [values[l], s.values[l]],
        ] as const) {
          for (let h = 0; h < kvHeads; h++) {
            const from0 = (n.source * kvHeads + h) * s.cols * headDim;
            (dst as Float32Array).set((from as Float32Array).subarray(from0, from0 + n.length * headDim), (i * kvHeads + h) * cols * headDim);
          }
        }
      }
      mask.fill(1, i * cols, i * cols + n.length);
      owners.push(n.owner);
      lengths.push(n.length);
    });
    this.rows = rows;
    this.cols = cols;
    this.keys = keys;
    this.values = values;
    this.mask = mask;
    this.owners = owners;
    this.lengths = lengths;
    this.rebuilds++;
  }
}
