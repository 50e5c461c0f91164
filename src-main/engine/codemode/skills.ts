// Skills (docs/code-mode.md): runs saved under a name, with a JSON Schema for their input, kept in one
// file of the home (`skills.json`, written atomically) and offered to code as `skills.NAME(input)`
// in profiles that set `"codeMode": { "skills": true }`. A skill whose tools left a profile stays saved; that
// profile shows it as unavailable.
import { SwitchboardError } from '../../../src-shared/errors.ts';
import { valueDeeperThan } from '../../../src-shared/codemode/json-depth.ts';
import { RESERVED_WORDS, SANDBOX_GLOBALS } from '../../../src-shared/names.ts';
import type { RunRecord } from '../../../src-shared/records.ts';
import type { SkillRecord } from '../../../src-shared/codemode/skill-catalog.ts';
import type { LowSync } from 'lowdb';
import { DocumentError, jsonDocumentSync, readDocumentSync } from '../config/json-document.ts';

interface SkillsFile {
  version: 1;
  skills: Record<string, SkillRecord>;
}

/** A method name in code as it is: a plain identifier that no rule of names.ts would change. */
const SKILL_NAME_RE = /^[A-Za-z_$][A-Za-z0-9_$]{0,63}$/;
const MAX_SCHEMA_CHARS = 16_000;
/** How deep an input schema may nest (objects and arrays), so nothing that walks it recursively can overflow. */
export const MAX_SCHEMA_DEPTH = 64;
export const SCHEMA_TOO_DEEP = `The input schema nests more than ${MAX_SCHEMA_DEPTH} levels deep; keep it flatter (a skill's input is usually a few named values).`;
const MAX_DESCRIPTION_CHARS = 1_000;
/** Skills at most: each one is a line of every declaration of the profiles that offer them. */
const MAX_SKILLS = 500;
/** skills.json larger than this is not read, in bytes (refused, as an unreadable file is). */
const MAX_SKILLS_FILE_BYTES = 64 << 20;

function wellFormed(key: string, s: unknown): s is SkillRecord {
  if (!s || typeof s !== 'object') return false;
  const r = s as Partial<SkillRecord>;
  if (r.input === undefined) return false;
  try {
    checkSkillName(key);
    checkInputSchema(r.input);
  } catch {
    return false;
  }
  return r.name === key && typeof r.code === 'string' && Array.isArray(r.tools) && r.tools.every((t) => typeof t === 'string' && t.includes('.'));
}

export function checkSkillName(name: unknown): string {
  if (typeof name !== 'string' || !SKILL_NAME_RE.test(name) || RESERVED_WORDS.has(name) || SANDBOX_GLOBALS.has(name) || name in Object.prototype) {
    throw new SwitchboardError(
      'bad-request',
      `"${String(name)}" cannot name a skill: use letters, digits, "_" or "$" (at most 64, not starting with a digit, not a JavaScript reserved word), e.g. weekly_report.`,
    );
  }
  return name;
}

/** The input schema a skill takes: a JSON Schema object of `"type": "object"`. */
export function checkInputSchema(input: unknown): Record<string, unknown> {
  if (input === undefined) return { type: 'object', properties: {} };
  if (input === null || typeof input !== 'object' || Array.isArray(input) || (input as { type?: unknown }).type !== 'object') {
    throw new SwitchboardError('bad-request', 'The input of a skill is a JSON Schema with "type": "object", e.g. {"type":"object","properties":{"repo":{"type":"string"}},"required":["repo"]}.');
  }
  // Before anything walks it (stringify, the declarations, the SDK's validation).
  if (valueDeeperThan(input, MAX_SCHEMA_DEPTH)) {
    throw new SwitchboardError('bad-request', SCHEMA_TOO_DEEP);
  }
  if (JSON.stringify(input).length > MAX_SCHEMA_CHARS) throw new SwitchboardError('bad-request', `The input schema is over ${MAX_SCHEMA_CHARS} characters; keep it small.`);
  return input as Record<string, unknown>;
}

/**
 * A light check of a call's input against the skill's schema (required keys, top-level
 * primitive types), so a wrong call fails with a message before any tool runs.
 */
export function inputProblem(schema: Record<string, unknown>, input: unknown): string | undefined {
  if (input === null || typeof input !== 'object' || Array.isArray(input)) return 'the input is an object';
  const obj = input as Record<string, unknown>;
  const required = Array.isArray(schema.required) ? schema.required.filter((k): k is string => typeof k === 'string') : [];
  const missing = required.filter((k) => !(k in obj));
  if (missing.length) return `the input lacks ${missing.map((k) => `"${k}"`).join(', ')}`;
  const props = (schema.properties ?? {}) as Record<string, { type?: unknown }>;
  for (const [key, value] of Object.entries(obj)) {
    const want = props[key]?.type;
    if (typeof want !== 'string') continue;
    const got = value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value;
    const ok = want === got || (want === 'integer' && Number.isInteger(value)) || (want === 'number' && got === 'number');
    if (!ok) return `"${key}" is a ${want}, not ${got === 'object' ? 'an object' : got === 'array' ? 'an array' : `a ${got}`}`;
  }
  return undefined;
}

export class SkillStore {
  readonly #doc: LowSync<SkillsFile>;
  #skills: Record<string, SkillRecord>;
  #writes: Promise<void> = Promise.resolve();
  readonly #listeners = new Set<() => void>();

  /** Why the file could not be read: it is then left untouched, and saving is refused. */
  readonly problem: string | undefined;

  private constructor(doc: LowSync<SkillsFile>, skills: Record<string, SkillRecord>, problem?: string) {
    this.#doc = doc;
    this.#skills = skills;
    this.problem = problem;
  }

  /** Reads the file; one that cannot be read is left as it is (no skills, saving refused). */
  static open(file: string): SkillStore {
    const doc = skillsDocument(file);
    try {
      return new SkillStore(doc, readDocumentSync(doc, { version: 1, skills: {} }).skills);
    } catch (err) {
      return new SkillStore(doc, {}, err instanceof Error ? err.message : String(err));
    }
  }

  /** Skills as saved; entries of a hand-edited file that could not be saved so are left out (and kept in the file). */
  list(): SkillRecord[] {
    return Object.entries(this.#skills)
      .filter(([key, s]) => wellFormed(key, s))
      .map(([, s]) => s)
      .sort((a, b) => (a.name < b.name ? -1 : 1));
  }

  get(name: string): SkillRecord | undefined {
    const s = Object.hasOwn(this.#skills, name) ? this.#skills[name] : undefined;
    return s && wellFormed(name, s) ? s : undefined;
  }

  onChange(cb: () => void): () => void {
    this.#listeners.add(cb);
    return () => this.#listeners.delete(cb);
  }

  /** A skill from a run that succeeded: its code, the tools it called, and the input schema. */
  async save(run: RunRecord, opts: { name: string; input?: unknown; description?: string; replace?: boolean }): Promise<SkillRecord> {
    const name = checkSkillName(opts.name);
    const input = checkInputSchema(opts.input);
    if (run.error) throw new SwitchboardError('bad-request', `Run ${run.id} failed (${run.error.kind}); save a run that succeeded.`);
    if (run.skill) throw new SwitchboardError('bad-request', `Run ${run.id} is a call of the skill "${run.skill.name}"; that skill is saved already.`);
    const description = (opts.description ?? `Saved from run ${run.id} of profile ${run.profile}.`).slice(0, MAX_DESCRIPTION_CHARS);
    const skill: SkillRecord = {
      name,
      description,
      input,
      code: run.code,
      profile: run.profile,
      fromRun: run.id,
      created: new Date().toISOString(),
      tools: [...new Set(run.calls.map((c) => `${c.server}.${c.tool}`))],
    };
    await this.#update((cur) => {
      if (!Object.hasOwn(cur, name) && Object.keys(cur).length >= MAX_SKILLS) throw new SwitchboardError('bad-request', `There are ${MAX_SKILLS} skills already; remove some first.`);
      if (Object.hasOwn(cur, name) && !opts.replace) throw new SwitchboardError('bad-request', `A skill named "${name}" exists; remove it first, or replace it (--replace).`);
      return { ...cur, [name]: skill };
    });
    return skill;
  }

  async remove(name: string): Promise<boolean> {
    let removed = false;
    await this.#update((cur) => {
      if (!Object.hasOwn(cur, name)) return undefined;
      removed = true;
      const next = { ...cur };
      delete next[name];
      return next;
    });
    return removed;
  }

  /**
   * Changes are queued and each sees the one before, so two saves never lose one another; memory
   * changes only once the file did. `mutate` returns undefined for "nothing to write".
   */
  #update(mutate: (cur: Record<string, SkillRecord>) => Record<string, SkillRecord> | undefined): Promise<void> {
    const done = this.#writes.then(async () => {
      if (this.problem) throw new SwitchboardError('io-error', this.problem);
      const next = mutate(this.#skills);
      if (!next) return;
      this.#doc.data = { version: 1, skills: next };
      this.#doc.write();
      this.#skills = next;
      for (const cb of this.#listeners) cb();
    });
    this.#writes = done.catch(() => {});
    return done;
  }
}

/** skills.json as a document: a "skills" object is all it must have; hand-edited entries are checked as they are used (wellFormed). */
function skillsDocument(file: string): LowSync<SkillsFile> {
  const decode = (raw: unknown): SkillsFile => {
    const skills = (raw as Partial<SkillsFile> | null)?.skills;
    if (!skills || typeof skills !== 'object') throw new DocumentError('content', `${file} has no "skills" object; fix or move it.`);
    return raw as SkillsFile;
  };
  return jsonDocumentSync(file, decode, { version: 1, skills: {} }, {
    maxBytes: MAX_SKILLS_FILE_BYTES,
    fix: 'fix or move it, and the skills come back',
    // A skills.json kept in a dotfile repository stays a link, with the mode its owner gave it.
    write: { keepMode: true, followSymlinks: true },
  });
}
