// The profile editor's state: a draft copied from the profile, the loaders that fill it in (each
// server's tools, the profile's past runs), the debounced sizing of the draft's tool declarations,
// and saving. Made while the editor mounts, so its effects live and end with the component; the
// page remounts the editor ({#key}) for another profile.
import { untrack } from 'svelte';
import type { ControlClient, ToolInfo } from '../../src-shared/api.ts';
import type { ProfileConfig, ResolvedBudgets } from '../../src-shared/config/schema.ts';
import type { RunRecord } from '../../src-shared/records.ts';
import { ApiError, describeError } from './api-client.ts';
import { budgetImpact, type BudgetKey, type Impact } from './budget-impact.ts';
import { problemsByField } from './field-problems.ts';
import { checkProfile, effectiveBudgets, profileFieldFor, profilePointer, profileValue, type ProfileDraft, type ProfileErrors } from './profile-form.ts';

/** What the editor is opened with (the component's props). */
export interface ProfileEditorInput {
  client: ControlClient;
  initial: ProfileDraft;
  /** The profile's name as saved; null for a new profile. */
  original: string | null;
  /** The saved profile's value, kept under the fields the form does not show. */
  base: Record<string, unknown>;
  /** Names other profiles already have. */
  taken: string[];
}

export interface DeclarationsSize {
  declarationChars: number;
  inline: boolean;
  limit: number;
}

/** Past runs read for the budget impact, newest first from the engine. */
const HISTORY_RUNS = 500;
/** The wait after the last edit before the draft's declarations are sized again. */
export const SIZE_DELAY_MS = 250;

export class ProfileEditorState {
  draft: ProfileDraft;
  errors = $state<ProfileErrors>({});
  busy = $state<string | null>(null);
  /** Each ticked server's tools as the engine lists them for this profile, or why not. */
  tools = $state<Record<string, ToolInfo[] | { error: string }>>({});
  runs = $state.raw<RunRecord[]>([]);
  /** The draft's tool declarations against the inline limit (code surface only). */
  declarations = $state<DeclarationsSize | null>(null);

  readonly budgets: ResolvedBudgets;
  readonly impact: Impact;
  /** The runs oldest first, as the charts draw them. */
  readonly ordered: RunRecord[];

  readonly #in: () => ProfileEditorInput;
  #sizeSeq = 0;

  /** `input`: the component's props, read each time they are used. */
  constructor(input: () => ProfileEditorInput) {
    this.#in = input;
    // The editor works on a copy, taken once: later changes to `initial` do not reach it.
    this.draft = $state(untrack(() => structuredClone($state.snapshot(input().initial)) as ProfileDraft));
    this.budgets = $derived(effectiveBudgets(this.draft));
    this.impact = $derived(budgetImpact(this.runs, this.budgets));
    this.ordered = $derived([...this.runs].reverse());
    $effect(() => {
      for (const s of this.draft.servers) if (!(s in this.tools)) void this.#loadTools(s);
    });
    // The declarations are sized for the unsaved draft, so the 12,000-character line moves while
    // servers and tools are toggled; debounced, and a late answer never overwrites a newer one.
    $effect(() => {
      if (this.draft.surface !== 'code') {
        this.declarations = null;
        return;
      }
      const value = profileValue($state.snapshot(this.draft) as ProfileDraft, this.#in().base, this.#toolNames());
      const name = this.draft.name.trim() || this.#in().original || undefined;
      const seq = ++this.#sizeSeq;
      const timer = setTimeout(async () => {
        try {
          const next = await this.#in().client.call('profiles.catalog', { ...(name ? { profile: name } : {}), draft: value as ProfileConfig });
          if (seq === this.#sizeSeq) this.declarations = next;
        } catch {
          // A draft the engine cannot size yet (a budget being typed) keeps the last figure.
        }
      }, SIZE_DELAY_MS);
      return () => clearTimeout(timer);
    });
    void this.#loadHistory();
  }

  async #loadTools(server: string): Promise<void> {
    this.tools[server] = [];
    const { client, original } = this.#in();
    try {
      this.tools[server] = (await client.call('servers.tools', original ? { name: server, profile: original } : { name: server })).tools;
    } catch (err) {
      this.tools[server] = { error: describeError(err) };
    }
  }

  async #loadHistory(): Promise<void> {
    const { client, original } = this.#in();
    if (!original) return;
    try {
      this.runs = (await client.call('runs.list', { profile: original, limit: HISTORY_RUNS })).runs;
    } catch {
      this.runs = [];
    }
  }

  #toolNames(): Record<string, string[]> {
    return Object.fromEntries(Object.entries(this.tools).map(([s, l]) => [s, Array.isArray(l) ? l.map((t) => t.name) : []]));
  }

  /** A tool is on when the draft lists it, else as the engine reports it for the saved profile. */
  isChecked(server: string, t: ToolInfo): boolean {
    const c = this.draft.checked[server];
    return c ? c.includes(t.name) : t.allowed;
  }

  toggleTool(server: string, t: ToolInfo, on: boolean): void {
    const list = this.tools[server];
    if (!Array.isArray(list)) return;
    const current = this.draft.checked[server] ?? list.filter((x) => x.allowed).map((x) => x.name);
    this.draft.checked[server] = on ? [...new Set([...current, t.name])] : current.filter((n) => n !== t.name);
  }

  toggleServer(name: string, on: boolean): void {
    this.draft.servers = on ? [...this.draft.servers, name] : this.draft.servers.filter((s) => s !== name);
  }

  /** A budget as typed, checked at once (the other fields wait for Save). */
  setBudget(k: BudgetKey, text: string): void {
    this.draft.budgets[k] = text;
    const e = checkProfile(this.draft, this.#in().taken, this.#in().original);
    this.errors = { ...this.errors, [k]: e[k] };
  }

  /**
   * Checks and writes the profile (a rename removes the old name); the saved name, or null with
   * `errors` saying why, field by field where the engine named the fields.
   */
  async save(): Promise<string | null> {
    const { client, original, base, taken } = this.#in();
    this.errors = checkProfile(this.draft, taken, original);
    if (Object.values(this.errors).some(Boolean)) return null;
    const name = this.draft.name.trim();
    const allTools = this.#toolNames();
    this.busy = 'Saving…';
    try {
      await client.call('config.set', { path: profilePointer(name), value: profileValue(this.draft, base, allTools) });
      if (original !== null && original !== name) await client.call('config.unset', { path: profilePointer(original) });
      return name;
    } catch (err) {
      if (err instanceof ApiError && err.problems.length) {
        this.errors = problemsByField(err.problems, (path) => profileFieldFor(path, name));
      } else this.errors = { form: describeError(err) };
      return null;
    } finally {
      this.busy = null;
    }
  }
}
