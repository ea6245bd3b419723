import { asyncScheduler, type SchedulerLike } from 'rxjs';
import { ValidationError, type ValidationIssue } from '../errors/validation-error.js';
import { silentLogger, type LoggerLike } from '../util/logger.js';

/** Settings of {@link ChannelWebhook} and {@link ClanWebhook}; every one is optional. */
export interface WebhookClientOptions {
  /** Per-attempt timeout in ms; the request is aborted when it passes. */
  timeout?: number;
  /**
   * Retries after the first attempt. 429 (after `Retry-After`), 5xx, network
   * errors and timeouts are retried, so a message may arrive twice if the
   * server stored it but its answer was lost. 0 turns retrying off.
   */
  retries?: number;
  /** Backoff between retries: full jitter in [0, min(capMs, baseMs · 2^attempt)). */
  backoff?: { baseMs?: number; capMs?: number };
  /** Longest `Retry-After` honoured; a longer one fails the request at once. */
  maxRetryAfterMs?: number;
  /** Drives timeouts and backoff delays (inject a TestScheduler in tests). */
  scheduler?: SchedulerLike;
  /** Source of jitter, [0, 1). */
  random?: () => number;
  /** fetch implementation (defaults to the platform's). */
  fetch?: typeof globalThis.fetch;
  /** Where requests and failures are logged; the token is removed first. Silent by default. */
  logger?: LoggerLike;
}

/** Defaults of every webhook client setting. */
export const WEBHOOK_CLIENT_DEFAULTS = {
  timeout: 7000,
  retries: 3,
  backoff: { baseMs: 250, capMs: 5000 },
  maxRetryAfterMs: 60_000,
} as const;

export interface ResolvedWebhookClientOptions {
  timeout: number;
  retries: number;
  baseMs: number;
  capMs: number;
  maxRetryAfterMs: number;
  scheduler: SchedulerLike;
  random: () => number;
  fetch?: typeof globalThis.fetch;
  logger: LoggerLike;
}

/** Applies defaults; a bad number is a {@link ValidationError} naming the option. */
export function resolveWebhookOptions(options: WebhookClientOptions = {}): ResolvedWebhookClientOptions {
  const issues: ValidationIssue[] = [];
  const check = (value: number | undefined, path: string, ok: (v: number) => boolean, rule: string): void => {
    if (value !== undefined && !(typeof value === 'number' && ok(value))) issues.push({ path, message: rule, code: 'invalid' });
  };
  const positive = (v: number): boolean => Number.isFinite(v) && v > 0;
  const nonNegative = (v: number): boolean => Number.isFinite(v) && v >= 0;
  check(options.timeout, 'timeout', positive, 'must be a positive number of ms');
  check(options.retries, 'retries', (v) => Number.isSafeInteger(v) && v >= 0, 'must be a non-negative integer');
  check(options.backoff?.baseMs, 'backoff.baseMs', nonNegative, 'must be a non-negative number of ms');
  check(options.backoff?.capMs, 'backoff.capMs', nonNegative, 'must be a non-negative number of ms');
  check(options.maxRetryAfterMs, 'maxRetryAfterMs', nonNegative, 'must be a non-negative number of ms');
  if (issues.length > 0) throw new ValidationError(issues, 'webhook options');
  return {
    timeout: options.timeout ?? WEBHOOK_CLIENT_DEFAULTS.timeout,
    retries: options.retries ?? WEBHOOK_CLIENT_DEFAULTS.retries,
    baseMs: options.backoff?.baseMs ?? WEBHOOK_CLIENT_DEFAULTS.backoff.baseMs,
    capMs: options.backoff?.capMs ?? WEBHOOK_CLIENT_DEFAULTS.backoff.capMs,
    maxRetryAfterMs: options.maxRetryAfterMs ?? WEBHOOK_CLIENT_DEFAULTS.maxRetryAfterMs,
    scheduler: options.scheduler ?? asyncScheduler,
    random: options.random ?? Math.random,
    ...(options.fetch ? { fetch: options.fetch } : {}),
    logger: options.logger ?? silentLogger,
  };
}
