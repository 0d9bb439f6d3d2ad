import type { AtsBSandboxState } from '@connector/ats-b-sandbox';

export interface RefreshAttempt {
  /** The refresh token presented (kept in this process only, never printed). */
  token: string;
  /** `issued`, or the OAuth error the sandbox answered (`invalid_grant`…). */
  outcome: string;
  at: number;
}

/**
 * What ATS-B saw of refresh tokens, as the vendor's own log would show it: every token presented and the
 * answer. ATS-B refresh tokens are single use, so one presented twice means a customer locked out.
 */
export class RefreshTokenLog {
  readonly attempts: RefreshAttempt[] = [];

  /** Starts recording every refresh the sandbox handles (wraps its OAuth store's refresh in this process). */
  static attach(state: AtsBSandboxState): RefreshTokenLog {
    const log = new RefreshTokenLog();
    const auth = state.auth;
    const refresh = auth.refresh.bind(auth);
    auth.refresh = (params) => {
      const attempt: RefreshAttempt = { token: params.refreshToken ?? '', outcome: 'issued', at: Date.now() };
      log.attempts.push(attempt);
      try {
        return refresh(params);
      } catch (error) {
        attempt.outcome = (error as { error?: string }).error ?? (error as Error).message;
        throw error;
      }
    };
    return log;
  }

  /** Refresh tokens presented more than once. */
  reused(): number {
    const seen = new Map<string, number>();
    for (const { token } of this.attempts) seen.set(token, (seen.get(token) ?? 0) + 1);
    return [...seen.values()].filter((n) => n > 1).length;
  }

  refused(): number {
    return this.attempts.filter((a) => a.outcome !== 'issued').length;
  }
}
