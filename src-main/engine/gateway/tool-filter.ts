// A profile's allow/deny globs (docs/configuration.md): over a server's own tool names (`tools`), prompt
// names (`prompts`) and resource URIs (`resources`), all read by the one matcher of
// src-shared/glob.ts, where `*` spans `/` and `.` (so `*` means every URI and `file:///docs/*`
// everything under /docs; `admin/*` every tool whose name starts `admin/`). Deny wins over allow; no entry means
// everything — except that a server whose tools are all denied also hides its resources and
// prompts unless the profile lists them, so a server "switched off" by `deny: ["*"]` contributes
// nothing at all.
import { globMatcher, matchesEverything, type GlobOptions } from '../../../src-shared/glob.ts';
import type { ToolFilter } from '../../../src-shared/config/schema.ts';

export type ToolPredicate = (tool: string) => boolean;

const ALLOW_ALL: ToolPredicate = () => true;
const DENY_ALL: ToolPredicate = () => false;

/** Names take `{a,b}` alternatives; URIs do not (a template's `{id}` or `{a,b}` is its text). */
const NAME_GLOB: GlobOptions = { braces: true };
const URI_GLOB: GlobOptions = { braces: false };

function compile(filter: ToolFilter | undefined, opts: GlobOptions): ToolPredicate {
  if (!filter || (!filter.allow && !filter.deny)) return ALLOW_ALL;
  const allow = filter.allow ? globMatcher(filter.allow, opts) : undefined;
  const deny = filter.deny && filter.deny.length > 0 ? globMatcher(filter.deny, opts) : undefined;
  return (name) => {
    if (deny && deny(name)) return false;
    if (allow) return allow(name);
    return true;
  };
}

export function compileToolFilter(filter: ToolFilter | undefined): ToolPredicate {
  return compile(filter, NAME_GLOB);
}

/** Whether a filter lets nothing through whatever the names: `deny: ["*"]` (or `**`), or `allow: []`. */
export function deniesEverything(filter: ToolFilter | undefined): boolean {
  if (!filter) return false;
  if (filter.allow && filter.allow.length === 0) return true;
  return (filter.deny ?? []).some(matchesEverything);
}

/**
 * The filters of one server in a profile. Resources and prompts without an entry of their own
 * follow the tools entry only when it denies everything.
 */
export function compileServerFilters(entries: { tools?: ToolFilter; resources?: ToolFilter; prompts?: ToolFilter }): {
  tools: ToolPredicate;
  resources: ToolPredicate;
  prompts: ToolPredicate;
} {
  const off = deniesEverything(entries.tools);
  return {
    tools: compileToolFilter(entries.tools),
    resources: entries.resources ? compile(entries.resources, URI_GLOB) : off ? DENY_ALL : ALLOW_ALL,
    prompts: entries.prompts ? compile(entries.prompts, NAME_GLOB) : off ? DENY_ALL : ALLOW_ALL,
  };
}
