// A program a local server needs that is not on this computer (uv for `uvx`, Docker, Python,
// Node.js): the engine names it, the Servers page turns it into a plain sentence and a button that
// opens its download page, with the folders looked in behind "Details".

/** What to install; `other` for a command no download page is known for. */
export type ProgramKind = 'node' | 'uv' | 'docker' | 'python' | 'other';

export interface MissingProgram {
  program: ProgramKind;
  /** The command as configured (e.g. "uvx"). */
  command: string;
  /** The folders (or, for a path, the files) it was looked for in, in order. */
  searched: string[];
}

interface ProgramInfo {
  /** How a person knows it ("uv", "Docker Desktop"). */
  name: string;
  /** Its own download or install page. */
  download: string;
}

export const PROGRAMS: Record<Exclude<ProgramKind, 'other'>, ProgramInfo> = {
  node: { name: 'Node.js', download: 'https://nodejs.org/en/download' },
  uv: { name: 'uv', download: 'https://docs.astral.sh/uv/getting-started/installation/' },
  docker: { name: 'Docker Desktop', download: 'https://www.docker.com/products/docker-desktop/' },
  python: { name: 'Python', download: 'https://www.python.org/downloads/' },
};

/** Which program provides `command` (its base name, any folder and Windows extension ignored). */
export function programOf(command: string): ProgramKind {
  const base = (command.split(/[\\/]/).pop() ?? command).toLowerCase().replace(/\.(exe|cmd|bat)$/, '');
  if (base === 'node' || base === 'npx' || base === 'npm') return 'node';
  if (base === 'uv' || base === 'uvx') return 'uv';
  if (base === 'docker') return 'docker';
  if (/^python(\d+(\.\d+)?)?$/.test(base) || base === 'py' || base === 'pip' || base === 'pip3') return 'python';
  return 'other';
}

/** The sentence a person reads: what is missing and what to do, no paths or settings. */
export function missingProgramSentence(server: string, m: MissingProgram): string {
  if (m.program === 'other') return `${server} cannot start: the program "${m.command}" it runs is not on this computer.`;
  const p = PROGRAMS[m.program];
  const docker = m.program === 'docker' ? ' and open it once' : '';
  return `${server} needs ${p.name}, which is not installed on this computer. Install ${p.name}${docker}, then restart ${server}.`;
}
