// The `skills` group of a code catalog (docs/code-mode.md): its own global, a user server named like it
// moved aside, `input` as the parameter, found by search, unavailable skills named in the JSDoc.
import { describe, expect, it } from 'vitest';
import { buildCodeCatalog, SKILLS_SERVER } from '../../../src-shared/codemode/catalog.ts';

const servers = [{ server: 'skills', tools: [{ name: 'ping', description: 'Answers pong.', inputSchema: { type: 'object' } }] }];
const skills = {
  tools: [{ name: 'weekly_report', description: 'Summarises the week of issues.', inputSchema: { type: 'object', properties: { team: { type: 'string' } }, required: ['team'] } }],
  unavailable: ['old_one (needs github.delete_repo)'],
};

describe('skills in the code catalog', () => {
  it('gets the skills global; a server named skills becomes skills_', () => {
    const cat = buildCodeCatalog(servers, { skills });
    expect(cat.globals).toEqual({ skills_: ['ping'], skills: ['weekly_report'] });
    expect(cat.resolve('skills', 'weekly_report')).toEqual({ server: SKILLS_SERVER, tool: 'weekly_report' });
    expect(cat.resolve('skills_', 'ping')).toEqual({ server: 'skills', tool: 'ping' });
    // Without skills enabled, the server keeps its name.
    expect(buildCodeCatalog(servers).globals).toEqual({ skills: ['ping'] });
  });

  it('declares skills.NAME(input) and names the unavailable ones', () => {
    const cat = buildCodeCatalog(servers, { skills });
    expect(cat.declarations).toContain('weekly_report(input: { team: string }): Promise<unknown>;');
    expect(cat.declarations).toContain('Unavailable here: old_one (needs github.delete_repo).');
    expect(cat.search('week summary of issues', 3).map((h) => h.name)).toContain('skills.weekly_report');
  });
});
