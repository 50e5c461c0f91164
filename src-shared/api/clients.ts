// The apps Switchboard connects to (their config files and entries), importing their servers,
// and removing the demo.

/** A profile's entry in one client's config file (docs/clients.md). */
export interface ClientProfileStatus {
  profile: string;
  /** The file has a `switchboard-<profile>` entry. */
  connected: boolean;
  /** The entry is exactly what connect would write now (false: connect again to refresh it). */
  matches: boolean;
  /** Since Switchboard wrote the entry, the client (or someone) changed or removed it. */
  drift: 'none' | 'changed' | 'removed';
  /** False when the profile is no longer in config.json (its entry can still be removed). */
  known: boolean;
}

export interface ClientInfo {
  id: string;
  displayName: string;
  /**
   * 'copy-paste': the client keeps its servers in its own settings screen (Jan, BoltAI, Witsy):
   * `clients.connect` writes nothing and answers with the steps (outcome.nextSteps); configPath is ''.
   * Absent for clients with a file.
   */
  kind?: 'copy-paste';
  installed: boolean;
  /** The file connect would change. */
  configPath: string;
  /** Where Switchboard looked to decide whether the client is installed. */
  lookedAt: string[];
  /** Profiles with an entry in the file. */
  connected: string[];
  /** Every profile of config.json, plus connected ones that are no longer there. */
  profiles: ClientProfileStatus[];
  /** Why the client's file could not be read (e.g. invalid JSON, with line and column), when it could not. */
  problem?: string;
  /** Switchboard wrote this file and keeps a backup to restore. */
  canUndo: boolean;
  /**
   * With `problem`: the newest copy Switchboard kept of the file that still reads (its time),
   * which `clients.restoreBackup` puts back. Absent when there is none.
   */
  backup?: { time: string };
  /** What the user must do in the client after connecting (restart, enable the entry…). */
  nextStep?: string;
  /**
   * Clients that ignore MCP servers in folders the user has not trusted (Gemini CLI, Qwen Code):
   * their trust list and the folders in it. `clients.trustFolder` adds one.
   */
  trust?: { file: string; folders: string[] };
}

/** What a connect left for the user to do, and what they should know (the Connect page's card shows it). */
export interface ConnectOutcome {
  /** In order: what to do in the client now (restart it, trust a folder, switch the entry on…). */
  nextSteps: string[];
  /** Things that went differently from a plain add: a hand-edited entry replaced, a client not found, … */
  warnings: string[];
  /** The client needs the folder the user works in to be trusted; the page offers to add it. */
  trustNeeded?: { file: string };
  /** A copy-paste client: nextSteps are what to click and paste in it; nothing was written. */
  copyPaste?: true;
  /** What the client's own listing command said of the entry, when it has one and is installed. */
  check?: ClientCheck;
}

/** A client's own listing (`claude mcp list`, …) run after a connect, read for the entry. */
export interface ClientCheck {
  /** The command as a person would type it. */
  command: string;
  /** connected: listed and started; listed: listed (the listing does not start servers); disabled: listed but switched off (Gemini CLI in a folder it does not trust); failed: listed, could not start; not-listed; unknown: the listing did not answer. */
  outcome: 'connected' | 'listed' | 'disabled' | 'failed' | 'not-listed' | 'unknown';
  /** The listing's line naming the entry, cleaned and cut to 200 characters. */
  line?: string;
  /** One sentence for the person. */
  message: string;
}

export interface ClientWriteResult {
  path: string;
  /** False when the file already said what was asked; nothing was written. */
  changed: boolean;
  /** Copy of the file as it was before the write; null when there was none or nothing was written. */
  backup: string | null;
  via: 'file' | 'claude-cli';
  /** What the added entry took the place of: nothing, Switchboard's own earlier entry, or one changed by hand. */
  replaced?: 'none' | 'ours' | 'other';
  /** clients.connect only: next steps and warnings for the user. */
  outcome?: ConnectOutcome;
}

/** One server of an import dry run, exactly as it would run (secret values left out). */
export interface ImportServerPreview {
  command?: string;
  args?: string[];
  cwd?: string;
  url?: string;
  transport?: 'http' | 'sse';
  /** Names only: values are copied as they are but not shown. */
  envKeys?: string[];
  /** Env variables that change what code the command loads (NODE_OPTIONS, LD_PRELOAD…), with their values: shown and flagged. */
  codeLoadingEnv?: { name: string; value: string }[];
  headerKeys?: string[];
  disabled?: boolean;
}

export type ImportPlanEntry =
  /** `taken`: the client's name is already used here by a different server, so it is brought over as `name`. */
  | { action: 'add'; clientName: string; name: string; server: ImportServerPreview; taken?: string }
  | { action: 'duplicate'; clientName: string; existing: string }
  | { action: 'skip'; clientName: string; reason: string };

export interface ImportPlanResult {
  client: string;
  configPath: string;
  entries: ImportPlanEntry[];
  /** The profile the servers join (the person's own, "my-tools"), created when missing; `replace` points the client at it. */
  replaceProfile: string;
  /** The servers already in that profile (brought over from other apps, or put there by hand). */
  profileServers: string[];
  /** Demo profiles the client is connected to: `replace` removes their entries too, so the app gets its own tools, not the demo's. */
  demoEntries: string[];
}

export interface DemoRemovalResult {
  /** The demo profiles removed (none when there was no demo). */
  profiles: string[];
  /** The demo servers removed. */
  servers: string[];
  /** The person's servers that were in a demo profile, now in `profile`. */
  kept: { servers: string[]; profile: string } | null;
  /** Apps whose demo entry was removed; `movedTo`: it now reaches that profile instead. */
  apps: { client: string; displayName: string; movedTo?: string }[];
  /** The demo folder: removed, kept (it holds files the person put or changed there), or not there. */
  folder: { path: string; state: 'removed' | 'kept' | 'absent' };
}
