/** Bounds of one HTTP exchange: how much of an answer is read, and how many redirects are followed. */
export interface ExchangeLimits {
  /** Bytes of one answer body, counted after decompression; a longer answer fails with `answer_too_large`. */
  maxAnswerBytes: number;
  /** Same-origin redirects followed for one request; one more fails with `redirect_refused`. */
  maxRedirects: number;
}

/** Defaults of {@link ExchangeLimits}: far above the largest answer the platform sends (a 500-item page). */
export const EXCHANGE_LIMITS: Readonly<ExchangeLimits> = {
  maxAnswerBytes: 16 * 1024 * 1024,
  maxRedirects: 5,
};
