/**
 * Checking a world seed: against the JSON Schema the package ships
 * (schemas/world-seed.schema.json), then its references. Every error names
 * the path of the field and what is wrong with it.
 */
import { readFile } from 'node:fs/promises';
import schema from '../../../schemas/world-seed.schema.json' with { type: 'json' };
import type { WorldSeed } from '../seed.js';
import { SchemaValidator, type JsonSchema, type SchemaIssue } from './json-schema.js';
import { referenceIssues } from './references.js';

export type { JsonSchema, JsonType, SchemaIssue } from './json-schema.js';

/** The seed format as JSON Schema: the same object as the shipped schemas/world-seed.schema.json. */
export const WORLD_SEED_SCHEMA: JsonSchema = schema as JsonSchema;

const validator = new SchemaValidator(WORLD_SEED_SCHEMA);

/** Issues listed in an error message; the rest are counted. */
const SHOWN_ISSUES = 5;

/** A seed that cannot be used: every issue, each with the path of its field. */
export class SeedError extends Error {
  constructor(
    readonly source: string,
    readonly issues: readonly SchemaIssue[],
  ) {
    const shown = issues.slice(0, SHOWN_ISSUES).map((issue) => `  ${issue.path}: ${issue.message}`);
    const more = issues.length > SHOWN_ISSUES ? [`  …and ${issues.length - SHOWN_ISSUES} more`] : [];
    super(`${source} is not a valid world seed (schemas/world-seed.schema.json):\n${[...shown, ...more].join('\n')}`);
    this.name = 'SeedError';
  }
}

/** What {@link checkSeed} needs to know besides the seed. */
export interface SeedCheckOptions {
  /** Names the seed in errors (a file path). */
  source?: string;
  /** Accounts the world already has, which the seed may refer to. */
  knownUser?: (username: string) => boolean;
  /** The username of an existing account whose API key this is, if any: a seeded account may not take it. */
  apiKeyHolder?: (token: string) => string | undefined;
  /** The name of an existing webhook whose token this is, if any: a seeded webhook may not take it. */
  webhookTokenHolder?: (token: string) => string | undefined;
}

/** Checks a seed's shape and references; throws a {@link SeedError} naming each bad field. */
export function checkSeed(value: unknown, options: SeedCheckOptions = {}): WorldSeed {
  const source = options.source ?? 'the seed';
  const shape = validator.validate(value);
  if (shape.length > 0) throw new SeedError(source, shape);
  const references = referenceIssues(value as WorldSeed, {
    ...(options.knownUser ? { user: options.knownUser } : {}),
    ...(options.apiKeyHolder ? { apiKeyHolder: options.apiKeyHolder } : {}),
    ...(options.webhookTokenHolder ? { webhookTokenHolder: options.webhookTokenHolder } : {}),
  });
  if (references.length > 0) throw new SeedError(source, references);
  return value as WorldSeed;
}

/** Reads and checks a seed from a JSON file. */
export async function loadSeed(path: string): Promise<WorldSeed> {
  const text = await readFile(path, 'utf8');
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new Error(`the seed file ${path} is not valid JSON: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
  return checkSeed(parsed, { source: `the seed file ${path}` });
}
