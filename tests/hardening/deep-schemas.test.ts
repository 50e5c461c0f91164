// Schemas nested thousands of levels deep: a skill's input schema is refused
// with a sentence before anything walks it (JSON.stringify overflowed at 3,000 levels).
import { describe, expect } from 'vitest';
import { checkInputSchema, SCHEMA_TOO_DEEP } from '../../src-main/engine/codemode/skills.ts';
import { hardeningCase } from './hardening-case.ts';

const nest = (n: number): Record<string, unknown> => {
  let schema: Record<string, unknown> = { type: 'string' };
  for (let i = 0; i < n; i++) schema = { type: 'object', properties: { a: schema } };
  return schema;
};

describe('schemas nested thousands of levels deep', () => {
  hardeningCase('attack', 'a skill input schema 3,000 deep is refused with a sentence, before anything walks it', async (tally) => {
    await tally.attempt('checkInputSchema', () => {
      expect(() => checkInputSchema(nest(3000))).toThrow(SCHEMA_TOO_DEEP);
      expect(() => checkInputSchema(nest(20_000))).toThrow(SCHEMA_TOO_DEEP);
    });
  });
});
