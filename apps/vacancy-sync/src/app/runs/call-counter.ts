/** Counts a run's answered ATS calls; `pending` is what has not been written to the run's row yet. */
export class CallCounter {
  private total = 0;
  private written = 0;

  readonly count = (): void => {
    this.total += 1;
  };

  pending(): number {
    return this.total - this.written;
  }

  markWritten(n: number): void {
    this.written += n;
  }
}
