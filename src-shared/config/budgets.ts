// Budget defaults and limits (the code-mode docs' table), free of zod so that the sandbox worker can use
// them without loading the schema library (~10 MB of memory per worker).
export const DEFAULT_BUDGETS = {
  timeoutMs: 30_000,
  maxToolCalls: 64,
  memoryMb: 64,
  maxSourceBytes: 65_536,
  maxResultChars: 24_000,
} as const;
export type ResolvedBudgets = { -readonly [K in keyof typeof DEFAULT_BUDGETS]: number };

/** Captured console output per run, in bytes (docs/code-mode.md: 64 KB). */
export const MAX_LOG_BYTES = 64 * 1024;
/** Default bound on one upstream call, in seconds (docs/configuration.md). */
export const DEFAULT_CALL_TIMEOUT_SEC = 120;

/** The profile's budgets (the schema's `Budgets`, taken structurally to keep this file zod-free) with defaults filled in. */
export function resolveBudgets(b: Partial<ResolvedBudgets> | undefined): ResolvedBudgets {
  return {
    timeoutMs: b?.timeoutMs ?? DEFAULT_BUDGETS.timeoutMs,
    maxToolCalls: b?.maxToolCalls ?? DEFAULT_BUDGETS.maxToolCalls,
    memoryMb: b?.memoryMb ?? DEFAULT_BUDGETS.memoryMb,
    maxSourceBytes: b?.maxSourceBytes ?? DEFAULT_BUDGETS.maxSourceBytes,
    maxResultChars: b?.maxResultChars ?? DEFAULT_BUDGETS.maxResultChars,
  };
}


/** Code-mode features (the schema's `CodeModeFeatures`) when a profile does not set them. */
export const CODE_MODE_DEFAULTS = { ledger: true, results: false, learnedTypes: false, nameIndex: true, skills: false } as const;
export type ResolvedCodeModeFeatures = { -readonly [K in keyof typeof CODE_MODE_DEFAULTS]: boolean };

export function resolveCodeModeFeatures(f: Partial<ResolvedCodeModeFeatures> | undefined): ResolvedCodeModeFeatures {
  return {
    ledger: f?.ledger ?? CODE_MODE_DEFAULTS.ledger,
    results: f?.results ?? CODE_MODE_DEFAULTS.results,
    learnedTypes: f?.learnedTypes ?? CODE_MODE_DEFAULTS.learnedTypes,
    nameIndex: f?.nameIndex ?? CODE_MODE_DEFAULTS.nameIndex,
    skills: f?.skills ?? CODE_MODE_DEFAULTS.skills,
  };
}
