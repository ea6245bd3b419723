import { describeNetworkFailure, shownUrl } from '../api/network-failure.js';
import { redactTokensInUrls } from '../util/redact.js';

/** Where the gateway address comes from: the server names it in its login answer. */
const GATEWAY_SETTING = "the `ws_url` the server named at login (the server's settings, or the `host` the client logged in to)";

/**
 * Why a socket closed without a word (1006), from the error event before the
 * close: the address tried (token removed), the likely cause and what to
 * change. Browsers say nothing more than "error".
 */
export function socketFailure(url: string, errorEvent: unknown): string {
  return describeNetworkFailure(errorEvent, shownUrl(url, redactTokensInUrls), GATEWAY_SETTING);
}
