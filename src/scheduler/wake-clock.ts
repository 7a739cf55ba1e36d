const hrtimeNs = (): bigint => process.hrtime.bigint();
/** Waits shorter than this are spun out on the event loop (`spinFor`) rather than left to a timer. */
const SPIN_BELOW_NS = 1_000_000n;

/**
 * The scheduler's clock and its one pending wake-up: queue delays of a few hundred microseconds and queue timeouts
 * need the queue looked at again at a precise moment, which node's millisecond timers alone cannot give.
 */
export class WakeClock {
  private wakeTimer: NodeJS.Timeout | undefined;
  private wakeImmediate: NodeJS.Immediate | undefined;
  private wakeAtNs: bigint | undefined;
  /** The latest moment a wake-up timer stood for (see `now`). */
  private clockFloorNs = 0n;

  constructor(private readonly onWake: () => void) {}

  /**
   * The scheduler's clock for queue delays and timeouts: hrtime, but never behind the moment the last wake-up
   * timer stood for. Timers have ms resolution and may fire a little before hrtime reaches their target; their
   * firing means that moment has come, and treating it otherwise would re-arm a timer for the remainder. (It also
   * keeps the scheduler consistent under fake timers, which move timers but not hrtime.)
   */
  now(): bigint {
    const now = hrtimeNs();
    // biome-ignore lint/complexity/useMathMinMax: bigints; Math.max takes numbers only.
    return now > this.clockFloorNs ? now : this.clockFloorNs;
  }

  /** Calls `onWake` at `targetNs` (an earlier wake-up already set is kept); undefined clears it. */
  arm(targetNs: bigint | undefined): void {
    if (targetNs === undefined) {
      this.clear();
      return;
    }
    // An earlier wake-up already set is kept: it pumps and sets the next one (fewer timer churns under load).
    if (this.wakeAtNs !== undefined && this.wakeAtNs <= targetNs) return;
    this.clear();
    this.wakeAtNs = targetNs;
    const leftNs = targetNs - this.now();
    if (leftNs < SPIN_BELOW_NS) {
      this.spinFor(targetNs, leftNs);
      return;
    }
    // Timers tick in whole milliseconds: wait the whole ms part, then spin out the rest (`onWakeTimer`).
    this.wakeTimer = setTimeout(() => this.onWakeTimer(targetNs), Math.floor(Number(leftNs) / 1e6));
    // The queue must never keep the process alive by itself.
    this.wakeTimer.unref();
  }

  private onWakeTimer(targetNs: bigint): void {
    this.wakeTimer = undefined;
    const leftNs = targetNs - hrtimeNs();
    if (leftNs > 0n && leftNs < SPIN_BELOW_NS) {
      this.spinFor(targetNs, leftNs);
      return;
    }
    // Either hrtime has reached the target or the timer is fake (fake timers move timers, not hrtime): the
    // timer's firing means its moment has come.
    this.wakeAtNs = undefined;
    if (targetNs > this.clockFloorNs) this.clockFloorNs = targetNs;
    this.onWake();
  }

  /**
   * Sub-millisecond waits: `setTimeout` cannot wait less than 1 ms, which would turn a 200 µs
   * max_queue_delay into 1.1-1.4 ms (bench/results/foundation-findings.md). Instead the check runs once per
   * event-loop turn (I/O keeps being served in between) until `leftNs` of hrtime have passed; it costs at most
   * the remaining sub-millisecond of CPU per wait. Counting the wait in hrtime from now, rather than comparing
   * hrtime with `targetNs`, keeps it short under fake timers too (where the scheduler's clock runs ahead of hrtime).
   * The immediates stay ref'd: an unref'd one does not stop the loop from blocking in its poll phase, and a server
   * at concurrency 1 then answered after the next unrelated event, 8-9 ms later (GPU-machine suite run, mlp c=1).
   */
  private spinFor(targetNs: bigint, leftNs: bigint): void {
    const endNs = hrtimeNs() + leftNs;
    const check = (): void => {
      if (hrtimeNs() < endNs) {
        this.wakeImmediate = setImmediate(check);
        return;
      }
      this.wakeImmediate = undefined;
      this.wakeAtNs = undefined;
      if (targetNs > this.clockFloorNs) this.clockFloorNs = targetNs;
      this.onWake();
    };
    this.wakeImmediate = setImmediate(check);
  }

  clear(): void {
    if (this.wakeTimer !== undefined) clearTimeout(this.wakeTimer);
    if (this.wakeImmediate !== undefined) clearImmediate(this.wakeImmediate);
    this.wakeTimer = undefined;
    this.wakeImmediate = undefined;
    this.wakeAtNs = undefined;
  }
}
