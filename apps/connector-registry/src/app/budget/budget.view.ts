import { ApiProperty } from '@nestjs/swagger';
import type { QuotaSnapshot } from '@connector/rate-limiter';

export class BudgetUsedView {
  @ApiProperty({ description: 'calls this service made in the current window' }) ours!: number;
  @ApiProperty({ description: "everyone's calls, as the ATS counts them (X-RateLimit-Remaining)" })
  everyone!: number;
}

export class BudgetWaitingView {
  @ApiProperty({ description: 'messages (candidates, applications, documents) waiting for budget' })
  messages!: number;
  @ApiProperty({ description: 'runs (vacancy syncs) waiting for budget' }) runs!: number;
  @ApiProperty({ nullable: true, type: String, format: 'date-time', description: 'the latest named wait' })
  until!: string | null;
}

/** The daily call budget of a connector's customer system (shared by every connector on that address). */
export class BudgetView {
  @ApiProperty() connectorId!: string;
  @ApiProperty({ description: 'the customer system the quota belongs to' }) baseUrl!: string;
  @ApiProperty({ enum: ['ok', 'exhausted', 'paused'] }) state!: 'ok' | 'exhausted' | 'paused';
  @ApiProperty({ description: 'the state in plain words' }) message!: string;
  @ApiProperty({ description: 'calls the plan spends to today: the lower of the two limits below' })
  limit!: number;
  @ApiProperty({ description: 'the connector option dailyCallLimit' }) configuredLimit!: number;
  @ApiProperty({ nullable: true, type: Number, description: 'X-RateLimit-Limit, when the ATS sent it' })
  atsLimit!: number | null;
  @ApiProperty({ type: BudgetUsedView }) used!: BudgetUsedView;
  @ApiProperty() remaining!: number;
  @ApiProperty({ format: 'date-time', description: 'when the ATS day resets' }) resetAt!: string;
  @ApiProperty({ nullable: true, type: String, format: 'date-time', description: 'after a 429' })
  pausedUntil!: string | null;
  @ApiProperty({ nullable: true, type: String, format: 'date-time', description: 'when calls go on' })
  resumesAt!: string | null;
  @ApiProperty({ description: 'our calls per hour lately' }) currentRatePerHour!: number;
  @ApiProperty({ description: 'calls used by the reset if the current rate held' }) projectedUse!: number;
  @ApiProperty({ description: 'remaining ÷ hours to the reset' }) sustainableRatePerHour!: number;
  @ApiProperty({ description: 'calls held for pushes for the rest of the day' }) pushReserve!: number;
  @ApiProperty({ description: 'calls held for vacancy syncs for the rest of the day' }) syncShare!: number;
  @ApiProperty({ type: BudgetWaitingView }) waiting!: BudgetWaitingView;
  @ApiProperty({
    nullable: true,
    type: String,
    format: 'date-time',
    description:
      "while the connector's run waits for this ATS itself (slow, busy with this account's other work, or failing), not for budget: until when",
  })
  waitingForAtsUntil!: string | null;
}

const iso = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());

export function toBudgetView(
  connectorId: string,
  baseUrl: string,
  plan: QuotaSnapshot,
  atsWaitUntil?: Date,
): BudgetView {
  const state = plan.pausedUntil !== null ? 'paused' : plan.exhausted ? 'exhausted' : 'ok';
  const resumesAt = iso(plan.resumesAt);
  const others = Math.max(0, plan.usedByAll - plan.usedByUs);
  const waiting = plan.waiting.message.count + plan.waiting.run.count;
  const waitingText =
    (waiting > 0 ? ` ${waiting} item(s) of work wait for it.` : '') +
    (atsWaitUntil
      ? ` A run is waiting for this ATS (it is slow, busy with this account's other work, or failing) until ${atsWaitUntil.toISOString()} (UTC), not for budget.`
      : '');
  let message: string;
  switch (state) {
    case 'paused':
      message = `The ATS refused further calls today (429). Nothing is lost: work waits and resumes by itself at ${resumesAt} (UTC).${waitingText}`;
      break;
    case 'exhausted':
      message = `Today's ATS budget is used up: ${plan.usedByAll} of ${plan.limit} calls (${others} by other integrations). Work waits and resumes by itself at ${resumesAt} (UTC).${waitingText}`;
      break;
    case 'ok':
      message = `${plan.usedByAll} of ${plan.limit} calls used today (${plan.usedByUs} by this service); the day resets at ${iso(plan.resetAt)} (UTC).${waitingText}`;
      break;
  }
  return {
    connectorId,
    baseUrl,
    state,
    message,
    limit: plan.limit,
    configuredLimit: plan.configuredLimit,
    atsLimit: plan.atsLimit,
    used: { ours: plan.usedByUs, everyone: plan.usedByAll },
    remaining: plan.remaining,
    resetAt: new Date(plan.resetAt).toISOString(),
    pausedUntil: iso(plan.pausedUntil),
    resumesAt,
    currentRatePerHour: plan.currentRatePerHour,
    projectedUse: plan.projectedUse,
    sustainableRatePerHour: plan.sustainableRatePerHour,
    pushReserve: plan.pushReserve,
    syncShare: plan.syncShare,
    waiting: {
      messages: plan.waiting.message.count,
      runs: plan.waiting.run.count,
      until: iso(Math.max(plan.waiting.message.until ?? 0, plan.waiting.run.until ?? 0) || null),
    },
    waitingForAtsUntil: atsWaitUntil?.toISOString() ?? null,
  };
}
