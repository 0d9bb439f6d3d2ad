/** This process no longer holds the connector's lease (it lapsed and another took it): stop, change nothing. */
export class RunLeaseLostError extends Error {
  constructor(runId: string) {
    super(`lost the connector's run lease while running ${runId}`);
    this.name = 'RunLeaseLostError';
  }
}
