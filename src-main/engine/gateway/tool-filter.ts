// A profile's allow/deny globs over a server's own tool names (SPEC §3): deny wins over allow;
// no entry means every tool.
import picomatch from 'picomatch';
import type { ToolFilter } from '../../../src-shared/config/schema.ts';

export type ToolPredicate = (tool: string) => boolean;

const ALLOW_ALL: ToolPredicate = () => true;

export function compileToolFilter(filter: ToolFilter | undefined): ToolPredicate {
  if (!filter || (!filter.allow && !filter.deny)) return ALLOW_ALL;
  const allow = filter.allow ? picomatch(filter.allow, { dot: true }) : undefined;
  const deny = filter.deny && filter.deny.length > 0 ? picomatch(filter.deny, { dot: true }) : undefined;
  return (tool) => {
    if (deny && deny(tool)) return false;
    if (allow) return allow(tool);
    return true;
  };
}
