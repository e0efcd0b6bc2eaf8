/**
 * Runs async jobs one at a time, in arrival order. A job's failure is its caller's alone;
 * the queue carries on with the next one.
 */
export class SerialQueue {
  private tail: Promise<unknown> = Promise.resolve();

  run<T>(job: () => Promise<T>): Promise<T> {
    const result = this.tail.then(() => job());
    this.tail = result.catch(() => undefined);
    return result;
  }
}
