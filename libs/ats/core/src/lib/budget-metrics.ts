import { counter, histogram } from '@connector/observability';
import { type AcquireResult, RateLimiterErrorCode, RateLimitExceededError } from '@connector/rate-limiter';

const LABELS = ['ats', 'priority'] as const;

const waits = counter({
  name: 'connector_rate_limiter_waits_total',
  help: 'ATS calls that waited for budget before they went out, by ATS and priority (push, sync)',
  labelNames: LABELS,
});
const waitSeconds = histogram({
  name: 'connector_rate_limiter_wait_seconds',
  help: 'How long an ATS call that waited for budget waited, by ATS and priority',
  labelNames: LABELS,
  buckets: [0.01, 0.05, 0.1, 0.5, 1, 5, 10, 30, 60],
});
const refusals = counter({
  name: 'connector_rate_limiter_refusals_total',
  help: 'ATS calls refused budget (their work waits for it), by ATS, priority and reason (exhausted, paused)',
  labelNames: [...LABELS, 'reason'],
});

/** Takes budget for one ATS call, counting the waits and the refusals. */
export async function meteredAcquire(
  ats: string,
  priority: string,
  acquire: () => Promise<AcquireResult>,
): Promise<void> {
  try {
    const { waitedMs } = await acquire();
    if (waitedMs > 0) {
      waits.inc({ ats, priority });
      waitSeconds.observe({ ats, priority }, waitedMs / 1000);
    }
  } catch (error) {
    if (error instanceof RateLimitExceededError) {
      const reason = error.code === RateLimiterErrorCode.Paused ? 'paused' : 'exhausted';
      refusals.inc({ ats, priority, reason });
    }
    throw error;
  }
}
