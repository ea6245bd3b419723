import type { DebugEvent } from './records.js';

/** One line for a debug event, as printed after its `clanstream:<topic>` prefix. */
export function describeDebugEvent(event: DebugEvent): string {
  switch (event.type) {
    case 'connecting':
      return `connecting (attempt ${event.attempt}) to ${event.url}`;
    case 'closed':
      return `socket closed with ${event.code}${event.reason ? ` (${event.reason})` : ''}; next: ${event.next}`;
    case 'retry_wait':
      return `attempt ${event.attempt + 1} in ${Math.round(event.delayMs)} ms`;
    case 'resuming':
      return `resuming session ${event.sessionId} after event ${event.seq}`;
    case 'resumed':
      return `resumed session ${event.sessionId}; ${event.replayed} missed event(s) replayed`;
    case 'resume_failed':
      return `the session could not be resumed (${event.reason}); starting a fresh one`;
    case 'session_started':
      return `fresh session ${event.sessionId} started at event ${event.seq}`;
    case 'frame_ignored':
      return `ignored ${event.what}`;
    case 'http_answer':
      return `${event.route.split(' ')[0]} ${event.url} answered ${event.status}`;
    case 'http_failure':
      return `${event.route.split(' ')[0]} ${event.url} failed: ${event.reason}`;
    case 'rate_limit_wait':
      return `${event.source === 'http' ? 'HTTP 429' : 'rate_limited'} on ${event.route}: waiting ${Math.round(event.waitMs)} ms`;
    case 'sync_page':
      return `${event.resource}${event.clanId ? ` of clan ${event.clanId}` : ''}: a page of ${event.items}${event.more ? ', more follow' : ', the last'}`;
    case 'outbox_depth':
      return `${event.queued} queued, ${event.inFlight} in flight`;
  }
}
