// When the relay's next round runs: one timer, brought forward and never put back. A round for a
// recorded event keeps the process alive until it has run, so that a script awaiting the event
// hears it; the poll and the back-off do not: an idle relay alone never keeps a process alive.
export class RoundTimer {
  private timer: NodeJS.Timeout | undefined;
  private timerAt = Number.POSITIVE_INFINITY;

  constructor(private readonly fire: () => void) {}

  /** A round in `delayMs`, unless one is due sooner already; `forRecorded`: it keeps the process alive. */
  schedule(delayMs: number, forRecorded: boolean): void {
    const at = Date.now() + delayMs;
    const keepsAlive = forRecorded || (this.timer?.hasRef() ?? false);
    if (this.timer !== undefined && this.timerAt <= at) {
      if (keepsAlive) this.timer.ref();
      return;
    }
    clearTimeout(this.timer);
    this.timerAt = at;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.timerAt = Number.POSITIVE_INFINITY;
      this.fire();
    }, delayMs);
    if (!keepsAlive) this.timer.unref();
  }

  cancel(): void {
    clearTimeout(this.timer);
  }
}
