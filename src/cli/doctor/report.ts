import type { DebugRecord } from '../../debug/records.js';
import type { Attempt, DoctorDialect } from './attempt.js';

/** What the doctor found, before it is printed. */
export interface DoctorReport {
  server: { host: string; port: string; ssl: boolean | string };
  botId: string;
  dialectAsked: DoctorDialect | 'auto';
  /** The dialect the bot connected in; undefined when no attempt got through. */
  dialect: DoctorDialect | undefined;
  ok: boolean;
  attempts: Attempt[];
}

/** A debug record on one line: its topic and its own description. */
function recordLine(record: DebugRecord): string {
  return `${record.topic} ${record.message}`;
}

function textLines(report: DoctorReport): string[] {
  const lines = [
    `clanstream doctor: bot ${report.botId} at ${report.server.host}:${report.server.port} (ssl: ${String(report.server.ssl)})`,
    `dialect asked: ${report.dialectAsked}; the server speaks: ${report.dialect ?? 'not found (no attempt got through)'}`,
  ];
  for (const a of report.attempts) {
    lines.push('', `== ${a.dialect}: ${a.ok ? 'every step passed' : 'failed'}${a.serverSpeaks ? ` (the server's frames are ${a.serverSpeaks} frames)` : ''}`);
    for (const step of a.steps) {
      // The URL last: a token redacted in it takes the rest of its word with it.
      const when = step.ms !== undefined ? ` (${step.ms} ms)` : '';
      const where = step.url ? ` — ${step.url}` : '';
      lines.push(`${step.ok ? 'ok  ' : 'FAIL'} ${step.name}: ${step.result}${when}${where}`);
    }
    if (a.errors.length > 0) lines.push('errors:', ...a.errors.map((e) => `  ${e}`));
    lines.push('debug records:', ...(a.records.length === 0 ? ['  (none)'] : a.records.map((r) => `  +${r.atMs} ms ${recordLine(r.record)}`)));
  }
  lines.push('', report.ok ? 'result: every step passed' : 'result: a step failed');
  return lines;
}

/** The report's lines, as text or as one JSON document, each passed through `redact` (the secrets never leave). */
export function formatReport(report: DoctorReport, json: boolean, redact: (text: string) => string): string[] {
  if (json) {
    const { attempts, ...rest } = report;
    // The session's tokens are for the redactor only.
    const shown = { ...rest, attempts: attempts.map(({ secrets: _secrets, ...a }) => ({ ...a, records: a.records.map((r) => ({ atMs: r.atMs, ...r.record })) })) };
    return [redact(JSON.stringify(shown, null, 2))];
  }
  return textLines(report).map(redact);
}
