// What running code gives back, the calls from code waiting for approval, and saved skills.

export interface ExecResult {
  text: string;
  isError: boolean;
  runId: string;
}

/** A tool call from code waiting for approval (profile `approvals`). */
export interface PendingApproval {
  id: string;
  time: string;
  profile: string;
  /** The calling client's raw clientInfo name. */
  client: string;
  /** Its connector id, when known. */
  clientId?: string;
  /** The calling client as people know it ("Cursor"): what the question and the card name. */
  displayName?: string;
  runId: string;
  server: string;
  tool: string;
  /** As written in code, e.g. `github.delete_repo`. */
  name: string;
  /** The tool's title (annotations.title, else title) and its description, cut; absent when it has none. */
  title?: string;
  description?: string;
  /** The exact arguments the code passed. */
  args: unknown;
  /** When the call is denied if nobody decides. */
  expiresAt: string;
  /** The calling client was asked too (elicitation); the first answer wins. */
  askedClient: boolean;
}

/** A saved run callable from code as `skills.NAME(input)` (docs/code-mode.md). */
export interface SkillInfo {
  name: string;
  description: string;
  /** JSON Schema of the input. */
  input: Record<string, unknown>;
  code: string;
  /** The profile the run came from, and the run. */
  profile: string;
  fromRun: string;
  created: string;
  /** Tools the run called, as `server.tool`. */
  tools: string[];
  /** With a profile: whether every tool it needs is in that profile. */
  available?: boolean;
  /** Why not: the servers or tools missing from the profile. */
  missing?: string[];
}
