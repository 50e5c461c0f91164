// Return types learned from real results. A tool without `outputSchema`
// leaves a model guessing field names; the shapes of that tool's recent unwrapped results (never
// the data: shapes.ts) are kept per server and tool in the home, and the declarations show them
// as observed, never as guaranteed. A tool's learned type starts over when its pinned definition
// changes (the hash pins.ts pins it by).
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { isShape, mergeShapes, renderShape, shapeOf, type Shape } from '../../../src-shared/codemode/shapes.ts';
import { AtomicTextFile } from '../config/atomic-file.ts';
import { toolDefinitionHash } from '../trust/pins.ts';

/** Results per tool whose shapes make its learned type; older ones age out. */
export const MAX_LEARNED_SAMPLES = 5;
/** Tools remembered at most, over all servers; the least recently seen go first. */
export const MAX_LEARNED_TOOLS = 2000;
/** A learned type is shown cut (deepest levels first) to this many characters. */
export const MAX_LEARNED_TYPE_CHARS = 400;
/** Observations are written to the home at most this often. */
const WRITE_DELAY_MS = 1000;

export interface ObservedReturn {
  /** TypeScript, one line. */
  type: string;
  /** How many recent results it was learned from. */
  samples: number;
}

interface Entry {
  server: string;
  tool: string;
  /** toolDefinitionHash of the definition the shapes were seen with. */
  def: string;
  shapes: Shape[];
  /** Rendered from `shapes`; not persisted. */
  observed?: ObservedReturn;
}

interface LearnedFile {
  version: 1;
  tools: { server: string; tool: string; def: string; shapes: unknown[] }[];
}

const SEP = '\u0000';

export class LearnedTypes {
  readonly file: string;
  readonly #entries = new Map<string, Entry>();
  readonly #hashes = new WeakMap<Tool, string>();
  readonly #onError: (message: string) => void;
  #epoch = 0;
  #timer: NodeJS.Timeout | undefined;
  /** Observations not yet written: a home where nothing was learned never gets the file. */
  #dirty = false;
  #writing: Promise<void> = Promise.resolve();

  constructor(file: string, opts: { onError?: (message: string) => void } = {}) {
    this.file = file;
    this.#onError = opts.onError ?? (() => {});
  }

  /** Reads the file; a missing or unreadable one starts empty (it is only a cache of shapes). */
  async load(): Promise<void> {
    let text: string | null;
    try {
      text = await new AtomicTextFile(this.file).read();
    } catch (err) {
      this.#onError(`cannot read ${this.file}: ${String(err)}`);
      return;
    }
    if (text === null) return;
    try {
      const data = JSON.parse(text) as Partial<LearnedFile>;
      for (const t of Array.isArray(data.tools) ? data.tools.slice(-MAX_LEARNED_TOOLS) : []) {
        if (typeof t?.server !== 'string' || typeof t.tool !== 'string' || typeof t.def !== 'string' || !Array.isArray(t.shapes)) continue;
        const shapes = t.shapes.filter((s) => isShape(s)).slice(-MAX_LEARNED_SAMPLES);
        if (shapes.length > 0) this.#entries.set(t.server + SEP + t.tool, { server: t.server, tool: t.tool, def: t.def, shapes });
      }
      this.#epoch++;
    } catch {
      this.#onError(`${this.file} is not valid JSON; learned return types start over`);
    }
  }

  /** Changes whenever some tool's learned type (or its sample count) changes. */
  epoch(): number {
    return this.#epoch;
  }

  #hash(tool: Tool): string {
    let h = this.#hashes.get(tool);
    if (h === undefined) {
      h = toolDefinitionHash(tool);
      this.#hashes.set(tool, h);
    }
    return h;
  }

  /** Records the shape of one unwrapped result of `tool` (tools with outputSchema are skipped). */
  observe(server: string, tool: Tool, value: unknown): void {
    if (tool.outputSchema || value === undefined) return;
    const key = server + SEP + tool.name;
    const def = this.#hash(tool);
    let entry = this.#entries.get(key);
    if (entry && entry.def !== def) entry = undefined;
    const before = entry?.observed ?? (entry && render(entry));
    const shapes = [...(entry?.shapes ?? []), shapeOf(value)].slice(-MAX_LEARNED_SAMPLES);
    const next: Entry = { server, tool: tool.name, def, shapes };
    next.observed = render(next);
    // Re-inserted so that Map order is least recently seen first.
    this.#entries.delete(key);
    this.#entries.set(key, next);
    while (this.#entries.size > MAX_LEARNED_TOOLS) this.#entries.delete(this.#entries.keys().next().value!);
    if (before?.type !== next.observed.type || before.samples !== next.observed.samples) this.#epoch++;
    this.#dirty = true;
    this.#scheduleWrite();
  }

  /** The learned return type of `tool` as it is defined now, if any results of it were seen. */
  observed(server: string, tool: Tool): ObservedReturn | undefined {
    if (tool.outputSchema) return undefined;
    const entry = this.#entries.get(server + SEP + tool.name);
    if (!entry || entry.def !== this.#hash(tool)) return undefined;
    return (entry.observed ??= render(entry));
  }

  #scheduleWrite(): void {
    if (this.#timer) return;
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      void this.flush();
    }, WRITE_DELAY_MS);
    this.#timer.unref();
  }

  /** Writes the shapes now (the engine calls it when it stops). */
  async flush(): Promise<void> {
    if (this.#timer) {
      clearTimeout(this.#timer);
      this.#timer = undefined;
    }
    if (!this.#dirty) return this.#writing;
    this.#dirty = false;
    const data: LearnedFile = {
      version: 1,
      tools: [...this.#entries.values()].map((e) => ({ server: e.server, tool: e.tool, def: e.def, shapes: e.shapes })),
    };
    const text = JSON.stringify(data);
    this.#writing = this.#writing.then(() =>
      new AtomicTextFile(this.file).write(text).catch((err: unknown) => this.#onError(`cannot write ${this.file}: ${String(err)}`)),
    );
    await this.#writing;
  }
}

function render(entry: Entry): ObservedReturn {
  const merged = entry.shapes.reduce<Shape>((acc, s) => mergeShapes(acc, s), { t: 'never' });
  return { type: renderShape(merged, MAX_LEARNED_TYPE_CHARS), samples: entry.shapes.length };
}
