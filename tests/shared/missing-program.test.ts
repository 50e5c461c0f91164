// What to install for a command that is not on this computer, and how the Servers page says it.
import { describe, expect, it } from 'vitest';
import { missingProgramSentence, programOf, PROGRAMS } from '../../src-shared/missing-program.ts';

describe('programOf', () => {
  it('names the program that provides a command, whatever its folder or Windows extension', () => {
    expect(['npx', 'node', 'npm.cmd', '/usr/local/bin/npx', 'C:\\Program Files\\nodejs\\node.exe'].map(programOf)).toEqual(['node', 'node', 'node', 'node', 'node']);
    expect(['uvx', 'uv', 'UVX.EXE'].map(programOf)).toEqual(['uv', 'uv', 'uv']);
    expect(['docker', 'docker.exe'].map(programOf)).toEqual(['docker', 'docker']);
    expect(['python', 'python3', 'python3.12', 'py', 'pip3'].map(programOf)).toEqual(['python', 'python', 'python', 'python', 'python']);
    expect(['deno', 'pythonista', 'my-server'].map(programOf)).toEqual(['other', 'other', 'other']);
  });
});

describe('missingProgramSentence', () => {
  it('says what to install in plain words, with no paths or settings', () => {
    expect(missingProgramSentence('fetch', { program: 'uv', command: 'uvx', searched: ['/usr/bin'] })).toBe('fetch needs uv, which is not installed on this computer. Install uv, then restart fetch.');
    expect(missingProgramSentence('db', { program: 'docker', command: 'docker', searched: [] })).toBe('db needs Docker Desktop, which is not installed on this computer. Install Docker Desktop and open it once, then restart db.');
    expect(missingProgramSentence('x', { program: 'other', command: 'frob', searched: ['/bin'] })).toBe('x cannot start: the program "frob" it runs is not on this computer.');
  });

  it('sends people to each program’s own https download page', () => {
    for (const p of Object.values(PROGRAMS)) expect(p.download).toMatch(/^https:\/\/(nodejs\.org|docs\.astral\.sh|www\.docker\.com|www\.python\.org)\//);
  });
});
