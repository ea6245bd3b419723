// Field tables read from code that ts-proto generated (the platform's published codecs, as
// TypeScript sources or compiled JavaScript): for each message, every field its encoder writes,
// with its number and how it is written. Reads facts (names, numbers, types), copies no code.

/** One field as an encoder writes it. `label`: '' (single), 'repeated', 'packed' or 'map'. */
// { name, number, label, type } with type a writer method ('int64', 'string', …) or a message name.

const START = /(?:export const (\w+)(?::\s*[\w<>]+)?|exports\.(\w+))\s*=\s*\{\s*encode\(\s*(?:message|_)(?::\s*\w+)?,\s*writer[^{]*\{/g;
const NAMESPACE = String.raw`(?:\w+_1\.|exports\.)?`;
const PATTERNS = [
  { label: 'map', re: new RegExp(String.raw`Object\.entries\(message\.(\w+)\)\.forEach\(\(\[key, value\]\)\s*=>\s*\{\s*${NAMESPACE}(\w+)\.encode\(\{[^}]*\},\s*writer\.uint32\((\d+)\)`, 'g'), name: 1, type: 2, tag: 3 },
  { label: 'packed', re: /writer\.uint32\((\d+)\)\.fork\(\);\s*for \(const v of message\.(\w+)\) \{\s*writer\.(\w+)\(v\)/g, name: 2, type: 3, tag: 1 },
  { label: 'repeated', re: new RegExp(String.raw`for \(const v of message\.(\w+)\) \{\s*${NAMESPACE}(\w+)\.encode\(v!?, writer\.uint32\((\d+)\)`, 'g'), name: 1, type: 2, tag: 3 },
  { label: 'repeated', re: /for \(const v of message\.(\w+)\) \{\s*writer\.uint32\((\d+)\)\.(\w+)\(v!?\)/g, name: 1, type: 3, tag: 2 },
  { label: '', re: new RegExp(String.raw`${NAMESPACE}(\w+Value)\.encode\(\{ value: message\.(\w+)!? \}, writer\.uint32\((\d+)\)`, 'g'), name: 2, type: 1, tag: 3 },
  { label: '', re: new RegExp(String.raw`${NAMESPACE}(\w+)\.encode\(${NAMESPACE}\w+\.wrap\(message\.(\w+)\), writer\.uint32\((\d+)\)`, 'g'), name: 2, type: 1, tag: 3 },
  { label: '', re: new RegExp(String.raw`${NAMESPACE}Timestamp\.encode\(toTimestamp\(message\.(\w+)\), writer\.uint32\((\d+)\)`, 'g'), name: 1, type: () => 'Timestamp', tag: 2 },
  { label: '', re: new RegExp(String.raw`${NAMESPACE}(\w+)\.encode\(message\.(\w+)!?, writer\.uint32\((\d+)\)`, 'g'), name: 2, type: 1, tag: 3 },
  { label: '', re: /writer\.uint32\((\d+)\)\.(\w+)\(message\.(\w+)!?\)/g, name: 3, type: 2, tag: 1 },
];

/** Message name → fields (sorted by number), for every message whose encoder the code holds. */
export function readTables(source) {
  const tables = new Map();
  for (const start of source.matchAll(START)) {
    const from = start.index + start[0].length;
    const end = source.slice(from).search(/\n\s+decode\(/);
    const body = source.slice(from, end < 0 ? undefined : from + end);
    const fields = [];
    for (const pattern of PATTERNS) {
      for (const m of body.matchAll(pattern.re)) {
        const tag = Number(m[pattern.tag]);
        fields.push({ name: m[pattern.name], number: tag >>> 3, label: pattern.label, type: typeof pattern.type === 'function' ? pattern.type() : m[pattern.type] });
      }
    }
    // A writer call no pattern read would go unnoticed: count them.
    const writes = (body.match(/writer\.uint32\(\d+\)/g) ?? []).length;
    if (writes !== fields.length) throw new Error(`ts-proto-tables: read ${fields.length} of the ${writes} fields ${start[1] ?? start[2]} writes`);
    tables.set(start[1] ?? start[2], fields.sort((a, b) => a.number - b.number));
  }
  return tables;
}

/** Local name → imported name, for the imports ts-proto renames (`ChannelDescription as ChannelDescription1`). */
export function readAliases(source) {
  return new Map([...source.matchAll(/^\s+(\w+) as (\w+),?$/gm)].map((m) => [m[2], m[1]]));
}
