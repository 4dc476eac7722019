// Rate limit of the editor's announcements (newWorkNotifier.ts): a burst of arrivals (an agent dropping ten requests,
// a git pull) becomes one notification, never a stack of them.
/**
 * At most one notification per `gapMs`: what arrives sooner waits and is announced together when the gap ends.
 * `show` gets one or more handoffs; time comes from `now` and `schedule` so a test can drive it.
 */
export class NotificationPacer<T> {
  private waiting: T[] = [];
  private lastShown = -Infinity;
  private timer: { cancel(): void } | undefined;

  constructor(
    private readonly gapMs: number,
    private readonly show: (items: T[]) => void,
    private readonly now: () => number = Date.now,
    private readonly schedule: (fn: () => void, ms: number) => { cancel(): void } = (fn, ms) => {
      const t = setTimeout(fn, ms);
      return { cancel: () => clearTimeout(t) };
    },
  ) {}

  add(items: readonly T[]): void {
    if (items.length === 0) return;
    this.waiting.push(...items);
    if (this.timer) return;
    const wait = this.lastShown + this.gapMs - this.now();
    if (wait <= 0) this.flush();
    else this.timer = this.schedule(() => this.flush(), wait);
  }

  private flush(): void {
    this.timer = undefined;
    const items = this.waiting;
    this.waiting = [];
    if (items.length === 0) return;
    this.lastShown = this.now();
    this.show(items);
  }

  dispose(): void {
    this.timer?.cancel();
    this.waiting = [];
  }
}
