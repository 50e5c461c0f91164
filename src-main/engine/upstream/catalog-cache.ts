// The catalogs one upstream offers (tools, resources and templates, prompts), re-read when the
// server says they changed. Overlapping refreshes of one kind collapse into one more run, and a
// result from an older connection never overwrites a newer one.
import type { Client } from '@modelcontextprotocol/client';
import type { Prompt, Resource, ResourceTemplate, ServerCapabilities, Tool } from '@modelcontextprotocol/sdk/types.js';

export type CatalogKind = 'tools' | 'resources' | 'prompts';

export class CatalogCache {
  tools: Tool[] = [];
  resources: Resource[] = [];
  templates: ResourceTemplate[] = [];
  prompts: Prompt[] = [];
  readonly #refreshing = new Map<CatalogKind, { again: boolean; done: Promise<void> }>();
  readonly #note: (line: string) => void;

  constructor(note: (line: string) => void) {
    this.#note = note;
  }

  clear(): void {
    this.tools = [];
    this.resources = [];
    this.templates = [];
    this.prompts = [];
  }

  /**
   * Re-reads one catalog from `client` while `current()` holds (the connection it came from is
   * still the live one). `strict`: a failure throws (the first tools/list of a connection).
   */
  refresh(kind: CatalogKind, client: Client, caps: ServerCapabilities, current: () => boolean, strict = false): Promise<void> {
    const running = this.#refreshing.get(kind);
    if (running) {
      running.again = true;
      return running.done;
    }
    const entry = { again: false, done: Promise.resolve() };
    entry.done = (async () => {
      try {
        do {
          entry.again = false;
          await this.#load(kind, client, caps, current, strict);
        } while (entry.again && current());
      } finally {
        this.#refreshing.delete(kind);
      }
    })();
    this.#refreshing.set(kind, entry);
    return entry.done;
  }

  async #load(kind: CatalogKind, client: Client, caps: ServerCapabilities, current: () => boolean, strict: boolean): Promise<void> {
    // Always a fresh read: the SDK's own response cache must not answer for a list_changed.
    const fresh = { cacheMode: 'refresh' as const };
    try {
      if (kind === 'tools') {
        const tools = caps.tools ? ((await client.listTools(undefined, fresh)).tools as Tool[]) : [];
        if (current()) this.tools = tools;
      } else if (kind === 'resources') {
        const [resources, templates] = caps.resources
          ? await Promise.all([
              client.listResources(undefined, fresh).then((r) => r.resources as Resource[]),
              client.listResourceTemplates(undefined, fresh).then((r) => r.resourceTemplates as ResourceTemplate[], () => [] as ResourceTemplate[]),
            ])
          : [[], []];
        if (current()) {
          this.resources = resources;
          this.templates = templates;
        }
      } else {
        const prompts = caps.prompts ? ((await client.listPrompts(undefined, fresh)).prompts as Prompt[]) : [];
        if (current()) this.prompts = prompts;
      }
    } catch (err) {
      if (strict) throw err;
      // A server that advertises resources or prompts but cannot list them still has usable tools.
      this.#note(`could not list ${kind}: ${err instanceof Error ? err.message : String(err)}`);
    }
  }
}
