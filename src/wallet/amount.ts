import { ValidationError } from '../errors/validation-error.js';

/** Decimal places of a token: 1 token = 1,000,000 units. */
export const TOKEN_DECIMALS = 6;
const UNITS_PER_TOKEN = 10n ** BigInt(TOKEN_DECIMALS);
const DECIMAL = /^(\d+)(?:\.(\d*))?(?:e([+-]?\d+))?$/i;
/** Bounds on what an amount may be written with (far beyond any real balance). */
const MAX_EXPONENT = 60;
const MAX_DIGITS = 80;

function refuse(field: string, message: string): never {
  throw new ValidationError([{ path: field, message, code: 'invalid' }], 'amount');
}

/**
 * Scales a token amount (a number or a decimal string such as "0.25") to
 * integer units, exactly. Zero, negative, NaN, infinite, malformed, or more
 * than 6 decimals is a {@link ValidationError}.
 */
export function toUnits(amount: number | string, field = 'amount'): bigint {
  let text: string;
  if (typeof amount === 'number') {
    if (!Number.isFinite(amount)) refuse(field, `must be a finite number, got ${amount}`);
    text = String(amount);
  } else if (typeof amount === 'string') {
    text = amount.trim();
  } else {
    refuse(field, 'must be a number or a decimal string');
  }
  if (text.startsWith('-')) refuse(field, 'must be greater than zero');
  const match = DECIMAL.exec(text.startsWith('+') ? text.slice(1) : text);
  if (!match) refuse(field, `must be a decimal number, got "${text.slice(0, 40)}"`);
  const [, whole = '0', fraction = '', exponentText] = match;
  const exponent = exponentText ? Number(exponentText) : 0;
  // No amount needs more than a few dozen digits; a huge exponent would only burn memory.
  if (!Number.isSafeInteger(exponent) || Math.abs(exponent) > MAX_EXPONENT || whole.length + fraction.length > MAX_DIGITS) refuse(field, 'is too large');
  // Shift the decimal point by the exponent, then require at most TOKEN_DECIMALS places.
  let digits = whole + fraction;
  let scale = fraction.length - exponent;
  if (scale < 0) {
    digits += '0'.repeat(-scale);
    scale = 0;
  }
  const trimmed = digits.replace(/0+$/, '');
  const dropped = digits.length - trimmed.length;
  const effectiveScale = Math.max(0, scale - dropped);
  if (effectiveScale > TOKEN_DECIMALS) refuse(field, `has more than ${TOKEN_DECIMALS} decimal places`);
  const units = BigInt(digits || '0') * UNITS_PER_TOKEN / 10n ** BigInt(scale);
  if (units <= 0n) refuse(field, 'must be greater than zero');
  return units;
}

/** Units → decimal string of tokens, without trailing zeros ("1.5", "2"). */
export function formatUnits(units: bigint): string {
  const negative = units < 0n;
  const abs = negative ? -units : units;
  const whole = abs / UNITS_PER_TOKEN;
  const fraction = (abs % UNITS_PER_TOKEN).toString().padStart(TOKEN_DECIMALS, '0').replace(/0+$/, '');
  return `${negative ? '-' : ''}${whole}${fraction ? `.${fraction}` : ''}`;
}

/** Units → tokens as a number (for event payloads, which carry numbers). */
export function unitsToTokens(units: bigint): number {
  return Number(formatUnits(units));
}
