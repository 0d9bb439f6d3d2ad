import type { BucketConfig, Priority } from '../index';

/** What the parent test asks one worker process to do (passed as JSON in argv[2]). */
export interface AcquireWorkerTask {
  key: string;
  config: BucketConfig;
  cost: number;
  /** How many acquires to fire, all at once, so they race with those of other processes. */
  attempts: number;
  priority: Priority;
  maxWaitMs: number;
}

export type AcquireWorkerMessage =
  | { type: 'ready' }
  | {
      type: 'result';
      granted: number;
      waitedMs: number[];
      refused: { code: string; retryAt: string }[];
      /** Anything that is not a rate-limit refusal: the test fails on these. */
      errors: string[];
    };

/** Sent by the parent once every worker is connected, so they all start together. */
export const GO_MESSAGE = 'go';
