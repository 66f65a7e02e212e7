/**
 * A counting semaphore: at most `max` holders at once; others wait up to a deadline in arrival
 * order. Used to bound CPU-heavy work such as parsing uploaded spreadsheets.
 */
export class Slots {
  private active = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(private readonly max: number) {}

  /**
   * A release function, or undefined when no slot freed up within `waitMs` or `signal` aborted
   * first (a waiter whose caller left gives its place up at once).
   */
  async acquire(waitMs: number, signal?: AbortSignal): Promise<(() => void) | undefined> {
    if (signal?.aborted) return undefined;
    if (this.active >= this.max) {
      const got = await new Promise<boolean>((resolve) => {
        const leave = () => {
          clearTimeout(timer);
          signal?.removeEventListener('abort', leave);
          const i = this.waiting.indexOf(wake);
          if (i >= 0) this.waiting.splice(i, 1);
          resolve(false);
        };
        const wake = () => {
          clearTimeout(timer);
          signal?.removeEventListener('abort', leave);
          resolve(true);
        };
        const timer = setTimeout(leave, waitMs);
        signal?.addEventListener('abort', leave, { once: true });
        this.waiting.push(wake);
      });
      if (!got) return undefined;
    } else {
      this.active++;
    }
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.waiting.shift();
      // The slot passes straight to the next waiter; otherwise it is freed.
      if (next) next();
      else this.active--;
    };
  }
}
