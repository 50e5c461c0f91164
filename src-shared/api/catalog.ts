// The server catalog: the shipped servers and the MCP Registry, searched, prepared for approval
// and installed.

export interface CatalogHit {
  name: string;
  version: string;
  title?: string;
  description: string;
  status: 'active' | 'deprecated' | 'deleted';
  /** npm, pypi, oci, nuget, mcpb, remote… */
  kinds: string[];
  installed?: { serverName: string; version: string; update: boolean };
  /** Ships with the app: listed and added without the registry. */
  shipped?: true;
}

/** A value the user is asked for before installing. */
export interface CatalogInput {
  id: number;
  label: string;
  description?: string;
  isSecret: boolean;
  isRequired: boolean;
  default?: string;
  choices?: string[];
}

export interface CatalogPrepared {
  registry: string;
  name: string;
  version: string;
  status: 'active' | 'deprecated' | 'deleted';
  description: string;
  /** The key under "servers" it will get. */
  serverName: string;
  /** "npm package … 1.2.0", "remote https://…". */
  source: string;
  /** The installed version this would replace, when it was installed from the registry before. */
  updateFrom: string | null;
  /** Set when the entry came from an install link rather than the registry ('' registry and version then). */
  link?: { from: 'switchboard' | 'cursor' | 'vscode' };
  inputs: CatalogInput[];
  /** Local servers: the command line, `<label>` where an asked value goes. */
  command?: string;
  args?: string[];
  /** `codeLoading`: the variable changes what code the command loads (NODE_OPTIONS, LD_PRELOAD…): shown flagged. */
  env?: Record<string, { value: string; secret: boolean; codeLoading?: true }>;
  /** What runs the command, and whether it was found (with the doctor's advice). */
  runner?: { program: string; found: string | null; advice: string[] };
  url?: string;
  transport?: 'http' | 'sse';
  headers?: Record<string, { value: string; secret: boolean }>;
  /** One of the servers shipped with the app (its inputs carry plain labels). */
  shipped?: true;
  /** Set when it needs the internet: to download it on its first start, or because it runs there. */
  network?: string;
}
