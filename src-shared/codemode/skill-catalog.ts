// A saved skill as a profile sees it: the tools it needs that the profile lacks, and the skills
// group of the profile's code catalog (the skills that can run there, and why the others cannot).
import type { SkillInfo } from '../api.ts';
import type { CatalogSkills, CatalogTool } from './catalog.ts';

/** A skill as stored in the home's skills.json. */
export type SkillRecord = Omit<SkillInfo, 'available' | 'missing'>;

/** What a profile lacks of a skill's tools (its servers or its tools left the profile). */
export function missingTools(skill: SkillRecord, profile: { includes(server: string): boolean; allows(server: string, tool: string): boolean }): string[] {
  return skill.tools.filter((name) => {
    const dot = name.indexOf('.');
    const server = name.slice(0, dot);
    const tool = name.slice(dot + 1);
    return !profile.includes(server) || !profile.allows(server, tool);
  });
}

/** The skills group of a profile's code catalog. */
export function catalogSkills(skills: SkillRecord[], profile: Parameters<typeof missingTools>[1]): CatalogSkills {
  const tools: CatalogTool[] = [];
  const unavailable: string[] = [];
  for (const s of skills) {
    const missing = missingTools(s, profile);
    if (missing.length) unavailable.push(`${s.name} (needs ${missing.join(', ')})`);
    else tools.push({ name: s.name, description: s.description, inputSchema: s.input });
  }
  return { tools, unavailable };
}
