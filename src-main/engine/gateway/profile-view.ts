// What one profile exposes right now: computed from its config and its servers' live catalogs,
// rebuilt when either changes, and shared by every client session of that profile.
import type { Prompt, Resource, ResourceTemplate, Tool } from '@modelcontextprotocol/sdk/types.js';
import { ownEntry, resolveBudgets, resolveCodeModeFeatures, type ClientSurface, type ProfileConfig, type ResolvedBudgets, type ResolvedCodeModeFeatures } from '../../../src-shared/config/schema.ts';
import { exposedToolNames } from '../../../src-shared/names.ts';
import { CLIENT_LIMITS, isLimitedClient, nameBudget } from '../../../src-shared/client-limits.ts';
import { buildCodeCatalog } from '../../../src-shared/codemode/catalog.ts';
import { RESULTS_DECLARATION, type ObservedReturn } from '../../../src-shared/codemode/declarations.ts';
import { compileServerFilters, compileToolFilter, type ToolPredicate } from './tool-filter.ts';
import { codeSurfaceTools } from './code-tools.ts';
import { catalogSkills, type SkillRecord } from '../../../src-shared/codemode/skill-catalog.ts';

export interface CatalogSource {
  /** Tools of a ready server, or undefined when it is not ready. */
  tools(server: string): Tool[] | undefined;
  resources(server: string): Resource[] | undefined;
  resourceTemplates(server: string): ResourceTemplate[] | undefined;
  prompts(server: string): Prompt[] | undefined;
  /** Return types learned from results (learned-types.ts), for profiles with codeMode.learnedTypes. */
  learned?: {
    epoch(): number;
    observed(server: string, tool: Tool): ObservedReturn | undefined;
  };
  /** Saved skills (docs/protocol.md), for profiles with codeMode.skills. */
  skills?(): SkillRecord[];
}

export interface ToolTarget {
  server: string;
  tool: string;
}

export type CodeCatalog = ReturnType<typeof buildCodeCatalog>;

const SEP = '\u0000';

export class ProfileView {
  readonly name: string;
  readonly config: ProfileConfig;
  readonly surface: 'tools' | 'code';
  readonly budgets: ResolvedBudgets;
  readonly codeMode: ResolvedCodeModeFeatures;
  readonly #filters = new Map<string, { tools: ToolPredicate; resources: ToolPredicate; prompts: ToolPredicate }>();
  readonly #source: CatalogSource;
  /** Longest tool name this view gives (a client's cap minus its prefix); undefined: the default 64. */
  readonly maxNameLength: number | undefined;

  #tools?: { list: Tool[]; byName: Map<string, ToolTarget> };
  #code?: { catalog: CodeCatalog; list: Tool[]; learnedEpoch: number | undefined };
  #resourceOwners?: Map<string, string>;
  #promptOwners?: Map<string, ToolTarget>;
  /** The profile as each client with a `clients` entry gets it, made on first use. */
  readonly #clientViews = new Map<string, ProfileView>();

  /**
   * `client`: a `clients` entry of the profile, which narrows the tools and may change the surface.
   * `maxNameLength`: the longest tool name the client takes once it put its prefix on it.
   */
  constructor(name: string, config: ProfileConfig, source: CatalogSource, client?: ClientSurface, maxNameLength?: number) {
    this.name = name;
    this.maxNameLength = maxNameLength;
    this.config = config;
    this.surface = client?.surface ?? config.surface ?? 'tools';
    this.budgets = resolveBudgets(config.budgets);
    this.codeMode = resolveCodeModeFeatures(config.codeMode);
    this.#source = source;
    for (const server of config.servers) {
      const own = compileServerFilters({
        tools: ownEntry(config.tools, server),
        resources: ownEntry(config.resources, server),
        prompts: ownEntry(config.prompts, server),
      });
      // Like the profile's own `tools`: a server without an entry keeps all its tools.
      const subset = client?.tools ? compileToolFilter(ownEntry(client.tools, server)) : undefined;
      this.#filters.set(server, subset ? { ...own, tools: (t) => own.tools(t) && subset(t) } : own);
    }
  }

  /**
   * The view one client gets: its `clients` entry applied, and for a client whose names are capped
   * (client-limits.ts) its tool names fitted to the cap with its prefix; this view when neither applies.
   */
  forClient(clientId: string | undefined): ProfileView {
    if (clientId === undefined) return this;
    const entry = ownEntry(this.config.clients, clientId);
    const budget = isLimitedClient(clientId) ? nameBudget(CLIENT_LIMITS[clientId], this.name) : undefined;
    if (!entry && budget === undefined) return this;
    let view = this.#clientViews.get(clientId);
    if (!view) {
      view = new ProfileView(this.name, this.config, this.#source, entry, budget);
      this.#clientViews.set(clientId, view);
    }
    return view;
  }

  /** Tools whose name this view shortened (it would not fit its client), with the profile's own name. */
  shortenedNames(): { from: string; to: string }[] {
    if (this.maxNameLength === undefined || this.surface !== 'tools') return [];
    const plain = exposedToolNames(this.#entries(), { namespace: this.config.namespace !== false });
    const out: { from: string; to: string }[] = [];
    for (const [name, target] of this.#toolsSurface().byName) {
      const from = plain.get(target.server + SEP + target.tool);
      if (from !== undefined && from !== name) out.push({ from, to: name });
    }
    return out;
  }

  #entries(): ToolTarget[] {
    return this.allowedTools().flatMap((g) => g.tools.map((t) => ({ server: g.server, tool: t.name })));
  }

  get servers(): readonly string[] {
    return this.config.servers;
  }

  includes(server: string): boolean {
    return this.#filters.has(server);
  }

  allows(server: string, tool: string): boolean {
    const f = this.#filters.get(server);
    return f ? f.tools(tool) : false;
  }

  /** Whether the profile shows this resource (or template) URI of the server. */
  allowsResource(server: string, uri: string): boolean {
    const f = this.#filters.get(server);
    return f ? f.resources(uri) : false;
  }

  /** Whether the profile shows this prompt (the server's own name) of the server. */
  allowsPrompt(server: string, prompt: string): boolean {
    const f = this.#filters.get(server);
    return f ? f.prompts(prompt) : false;
  }

  /** Drops cached lists; the next read recomputes from the live catalogs. */
  invalidate(): void {
    for (const view of this.#clientViews.values()) view.invalidate();
    this.#tools = undefined;
    this.#code = undefined;
    this.#resourceOwners = undefined;
    this.#promptOwners = undefined;
  }

  /** Allowed upstream tools of ready servers, per server, in config order. */
  allowedTools(): { server: string; tools: Tool[] }[] {
    const out: { server: string; tools: Tool[] }[] = [];
    for (const server of this.config.servers) {
      const tools = this.#source.tools(server);
      if (!tools) continue;
      out.push({ server, tools: tools.filter((t) => this.allows(server, t.name)) });
    }
    return out;
  }

  /** The tools surface: upstream tools renamed `<server>__<tool>`, definitions unchanged. */
  #toolsSurface(): { list: Tool[]; byName: Map<string, ToolTarget> } {
    if (this.#tools) return this.#tools;
    const groups = this.allowedTools();
    const entries = groups.flatMap((g) => g.tools.map((t) => ({ server: g.server, tool: t.name })));
    const names = exposedToolNames(entries, {
      namespace: this.config.namespace !== false,
      ...(this.maxNameLength !== undefined ? { maxLength: this.maxNameLength } : {}),
    });
    const list: Tool[] = [];
    const byName = new Map<string, ToolTarget>();
    for (const g of groups) {
      for (const t of g.tools) {
        const exposed = names.get(g.server + SEP + t.name) ?? `${g.server}__${t.name}`;
        list.push({ ...t, name: exposed });
        byName.set(exposed, { server: g.server, tool: t.name });
      }
    }
    this.#tools = { list, byName };
    return this.#tools;
  }

  codeCatalog(): CodeCatalog {
    return this.#codeSurface().catalog;
  }

  #codeSurface(): { catalog: CodeCatalog; list: Tool[] } {
    // Learned types change as results come in; they only rebuild the catalog when a type does.
    const learned = this.codeMode.learnedTypes ? this.#source.learned : undefined;
    const learnedEpoch = learned?.epoch();
    if (this.#code && this.#code.learnedEpoch === learnedEpoch) return this.#code;
    const groups = this.allowedTools();
    const skills = this.codeMode.skills && this.#source.skills ? catalogSkills(this.#source.skills(), this) : undefined;
    const catalog = buildCodeCatalog(
      learned
        ? groups.map((g) => ({
            server: g.server,
            tools: g.tools.map((t) => {
              const observedReturn = learned.observed(g.server, t);
              return observedReturn ? { ...t, observedReturn } : t;
            }),
          }))
        : groups,
      {
        ...(this.codeMode.results ? { extraGlobals: ['results'], extraDeclarations: [RESULTS_DECLARATION] } : {}),
        ...(skills ? { skills } : {}),
      },
    );
    this.#code = { catalog, list: codeSurfaceTools(catalog, this.budgets, this.codeMode), learnedEpoch };
    return this.#code;
  }

  /** The definition of an allowed tool of a ready server, as its upstream lists it now. */
  toolDefinition(server: string, tool: string): Tool | undefined {
    if (!this.allows(server, tool)) return undefined;
    return this.#source.tools(server)?.find((t) => t.name === tool);
  }

  listTools(): Tool[] {
    return this.surface === 'code' ? this.#codeSurface().list : this.#toolsSurface().list;
  }

  /** Resolves a tools-surface name to its upstream. */
  resolveTool(name: string): ToolTarget | undefined {
    return this.#toolsSurface().byName.get(name);
  }

  exposedToolCount(): number {
    return this.listTools().length;
  }

  listResources(): Resource[] {
    const out: Resource[] = [];
    const owners = new Map<string, string>();
    for (const server of this.config.servers) {
      for (const r of this.#source.resources(server) ?? []) {
        if (owners.has(r.uri) || !this.allowsResource(server, r.uri)) continue;
        owners.set(r.uri, server);
        out.push(r);
      }
    }
    this.#resourceOwners = owners;
    return out;
  }

  listResourceTemplates(): ResourceTemplate[] {
    return this.config.servers.flatMap((s) => (this.#source.resourceTemplates(s) ?? []).filter((t) => this.allowsResource(s, t.uriTemplate)));
  }

  /**
   * The server that offers a resource URI: an exact listed URI, else the first whose templates'
   * scheme matches. Only URIs the profile's `resources` filter lets through (a read of any other
   * is refused as a filtered tool call is).
   */
  resourceOwner(uri: string): string | undefined {
    if (!this.#resourceOwners) this.listResources();
    const exact = this.#resourceOwners!.get(uri);
    if (exact) return exact;
    const scheme = uri.split(':')[0];
    for (const server of this.config.servers) {
      if (!this.allowsResource(server, uri)) continue;
      for (const t of this.#source.resourceTemplates(server) ?? []) {
        if (t.uriTemplate.split(':')[0] === scheme && this.allowsResource(server, t.uriTemplate)) return server;
      }
    }
    for (const server of this.config.servers) {
      if (!this.allowsResource(server, uri)) continue;
      if ((this.#source.resources(server) ?? []).some((r) => r.uri.split(':')[0] === scheme && this.allowsResource(server, r.uri))) return server;
    }
    return undefined;
  }

  /**
   * Prompts are named `<profile>__<server>__<prompt>`: clients that merge every server's prompts
   * into one list (Gemini CLI) would otherwise see the same name from two connected profiles that
   * share a server. A profile with `"namespace": false` keeps the upstream names, as its tools do.
   */
  listPrompts(): Prompt[] {
    const out: Prompt[] = [];
    const owners = new Map<string, ToolTarget>();
    const namespaced = this.config.namespace !== false;
    for (const server of this.config.servers) {
      for (const p of this.#source.prompts(server) ?? []) {
        if (!this.allowsPrompt(server, p.name)) continue;
        const name = namespaced ? `${this.name}__${server}__${p.name}` : p.name;
        if (owners.has(name)) continue;
        owners.set(name, { server, tool: p.name });
        out.push({ ...p, name });
      }
    }
    this.#promptOwners = owners;
    return out;
  }

  promptTarget(name: string): ToolTarget | undefined {
    if (!this.#promptOwners) this.listPrompts();
    return this.#promptOwners!.get(name);
  }
}
