// The profile editor's data: budgets as text boxes, tool checklists, and the value it writes.
import {
  CODE_MODE_DEFAULTS,
  DEFAULT_APPROVAL_TIMEOUT_SEC,
  DEFAULT_BUDGETS,
  PROFILE_NAME_RE,
  resolveCodeModeFeatures,
  type ResolvedBudgets,
  type ResolvedCodeModeFeatures,
} from '../../src-shared/config/schema.ts';
import { literalGlob } from '../../src-shared/glob.ts';
import { BUDGET_KEYS, budgetText, parseBudget, type BudgetKey } from './budget-impact.ts';

export interface ProfileDraft {
  name: string;
  servers: string[];
  surface: 'tools' | 'code';
  /** As the boxes show them: in seconds, KB, … (BUDGET_LABELS), not as stored. */
  budgets: Record<BudgetKey, string>;
  /** Code-mode feature switches (config.json `codeMode`), defaults filled in. */
  codeMode: ResolvedCodeModeFeatures;
  /** Per server whose checklist the user changed: the tool names left checked. */
  checked: Record<string, string[]>;
  /** Code surface: approvals of calls from code; patterns as typed, comma-separated. */
  approvals: { destructive: boolean; writes: boolean; approve: string; never: string; timeoutSec: string };
}

export type ProfileErrors = Partial<Record<'name' | 'servers' | 'form' | 'approvalTimeout' | BudgetKey, string>>;

const patterns = (text: string): string[] => text.split(',').map((p) => p.trim()).filter(Boolean);

export function draftFromProfile(name: string, raw: Record<string, unknown>): ProfileDraft {
  const b = (raw.budgets ?? {}) as Partial<ResolvedBudgets>;
  return {
    name,
    servers: Array.isArray(raw.servers) ? raw.servers.filter((s): s is string => typeof s === 'string') : [],
    surface: raw.surface === 'code' ? 'code' : 'tools',
    budgets: Object.fromEntries(BUDGET_KEYS.map((k) => [k, budgetText(k, b[k] ?? DEFAULT_BUDGETS[k])])) as Record<BudgetKey, string>,
    codeMode: resolveCodeModeFeatures(isRecord(raw.codeMode) ? (raw.codeMode as Partial<ResolvedCodeModeFeatures>) : undefined),
    checked: {},
    approvals: approvalsDraft(raw.approvals),
  };
}

function approvalsDraft(raw: unknown): ProfileDraft['approvals'] {
  const a = (raw && typeof raw === 'object' ? raw : {}) as Record<string, unknown>;
  const list = (v: unknown) => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string').join(', ') : '');
  return {
    destructive: a.destructive === true,
    writes: a.writes === true,
    approve: list(a.approve),
    never: list(a.never),
    timeoutSec: String(typeof a.timeoutSec === 'number' ? a.timeoutSec : DEFAULT_APPROVAL_TIMEOUT_SEC),
  };
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** The switches as the editor shows them: what each does, in a sentence. */
export const CODE_MODE_LABELS: Record<keyof ResolvedCodeModeFeatures, string> = {
  ledger: 'Call ledger — a failed run lists the calls it made, so the model can carry on from there',
  results: 'Result handles — a result too big for the result size is kept for a day, and the model can read it in parts',
  learnedTypes: 'Learned result shapes — the model is shown what recent results of a tool looked like (for tools that do not describe their results)',
  nameIndex: 'Name index — with many tools, the model still sees the name of each',
  skills: 'Skills — runs you saved can be called again from code, by name',
};

/** Budgets as typed, falling back to the defaults for boxes that do not hold a valid value. */
export function effectiveBudgets(d: ProfileDraft): ResolvedBudgets {
  const out = { ...DEFAULT_BUDGETS } as ResolvedBudgets;
  for (const k of BUDGET_KEYS) {
    const p = parseBudget(k, d.budgets[k]);
    if ('value' in p) out[k] = p.value;
  }
  return out;
}

export function checkProfile(d: ProfileDraft, taken: readonly string[], original: string | null): ProfileErrors {
  const errors: ProfileErrors = {};
  const n = d.name.trim();
  if (n === '') errors.name = 'Give the profile a name, such as work or automation.';
  else if (!PROFILE_NAME_RE.test(n)) errors.name = 'Use letters, digits, “_” and “-” only (up to 64, starting with a letter or digit).';
  else if (n !== original && taken.includes(n)) errors.name = `There is already a profile named “${n}”. Pick another name.`;
  if (d.surface === 'code') {
    for (const k of BUDGET_KEYS) {
      const p = parseBudget(k, d.budgets[k]);
      if ('error' in p) errors[k] = p.error;
    }
    const t = d.approvals.timeoutSec.trim();
    if (!/^\d+$/.test(t) || Number(t) < 1 || Number(t) > 3600) errors.approvalTimeout = 'Give the approval timeout in whole seconds, from 1 to 3600.';
  }
  return errors;
}

/** The profile value to write: the current one with the editor's changes, unknown keys kept. */
export function profileValue(d: ProfileDraft, base: Record<string, unknown>, allTools: Record<string, string[]>): Record<string, unknown> {
  const value: Record<string, unknown> = { ...base, servers: [...d.servers], surface: d.surface };
  if (d.surface === 'code') {
    const budgets: Record<string, unknown> = { ...((base.budgets as Record<string, unknown>) ?? {}) };
    for (const k of BUDGET_KEYS) {
      const p = parseBudget(k, d.budgets[k]);
      if ('value' in p) {
        if (p.value === DEFAULT_BUDGETS[k] && budgets[k] === undefined) continue;
        budgets[k] = p.value;
      }
    }
    if (Object.keys(budgets).length) value.budgets = budgets;
    // A switch is written when it differs from its default or was set already; unknown keys stay.
    const codeMode: Record<string, unknown> = isRecord(base.codeMode) ? { ...base.codeMode } : {};
    for (const k of Object.keys(CODE_MODE_DEFAULTS) as (keyof ResolvedCodeModeFeatures)[]) {
      if (d.codeMode[k] !== CODE_MODE_DEFAULTS[k] || codeMode[k] !== undefined) codeMode[k] = d.codeMode[k];
    }
    if (Object.keys(codeMode).length) value.codeMode = codeMode;
    const approvals = approvalsValue(d.approvals, base.approvals);
    if (approvals) value.approvals = approvals;
    else delete value.approvals;
  }
  const tools: Record<string, unknown> = { ...((base.tools as Record<string, unknown>) ?? {}) };
  for (const s of Object.keys(tools)) if (!d.servers.includes(s)) delete tools[s];
  for (const [server, names] of Object.entries(d.checked)) {
    if (!d.servers.includes(server)) continue;
    const all = allTools[server] ?? [];
    if (all.length > 0 && all.every((t) => names.includes(t))) delete tools[server];
    else tools[server] = { allow: names.map(literalGlob) };
  }
  if (Object.keys(tools).length) value.tools = tools;
  else delete value.tools;
  // A client's subset (profiles.P.clients.ID.tools) may only name the profile's servers: drop removed ones.
  if (isRecord(base.clients)) {
    const clients: Record<string, unknown> = {};
    for (const [id, entry] of Object.entries(base.clients)) {
      if (!isRecord(entry) || !isRecord(entry.tools)) {
        clients[id] = entry;
        continue;
      }
      const subset = Object.fromEntries(Object.entries(entry.tools).filter(([s]) => d.servers.includes(s)));
      clients[id] = { ...entry, tools: subset };
    }
    value.clients = clients;
  }
  return value;
}

/** The `approvals` key to write (unknown keys kept), or undefined when it asks for nothing. */
function approvalsValue(a: ProfileDraft['approvals'], base: unknown): Record<string, unknown> | undefined {
  const out: Record<string, unknown> = { ...(base && typeof base === 'object' ? (base as Record<string, unknown>) : {}) };
  const set = (key: string, v: unknown, keep: boolean) => (keep ? (out[key] = v) : delete out[key]);
  set('destructive', true, a.destructive);
  set('writes', true, a.writes);
  set('approve', patterns(a.approve), patterns(a.approve).length > 0);
  set('never', patterns(a.never), patterns(a.never).length > 0);
  const t = Number(a.timeoutSec.trim());
  set('timeoutSec', t, Number.isInteger(t) && t !== DEFAULT_APPROVAL_TIMEOUT_SEC);
  if (!a.destructive && !a.writes && !patterns(a.approve).length) return undefined;
  return out;
}

export function profilePointer(name: string): string {
  return `/profiles/${name.replace(/~/g, '~0').replace(/\//g, '~1')}`;
}

/** Places an engine problem (`profiles.P.budgets.timeoutMs: …`) next to its field. */
export function profileFieldFor(path: string, name: string): keyof ProfileErrors {
  const prefix = `profiles.${name}`;
  if (path === prefix) return 'name';
  const rest = path.startsWith(`${prefix}.`) ? path.slice(prefix.length + 1).split('.') : [];
  if (rest[0] === 'budgets' && BUDGET_KEYS.includes(rest[1] as BudgetKey)) return rest[1] as BudgetKey;
  if (rest[0] === 'servers') return 'servers';
  return 'form';
}

