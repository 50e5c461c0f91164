// Clients as people know them. A session names itself by its `clientInfo.name` (Gemini CLI says
// "gemini-cli-mcp-client", Codex "codex-mcp-client", Qwen Code "qwen-cli-mcp-client-<entry>"),
// which is not what `connect` calls them; this is the one mapping from those raw names to the
// connector ids (src-shared/client-catalog.ts), used by Runs, Audit, Connect and `status`. The raw
// name stays in every record. Pure.
import { CLIENT_CATALOG } from './client-catalog.ts';

/** Connector id → the client's name as its makers write it. */
export const CLIENT_NAMES: Readonly<Record<string, string>> = Object.fromEntries(CLIENT_CATALOG.map((c) => [c.id, c.name]));

/**
 * Raw clientInfo names, lower-cased, by what they contain, in the order they are tried: the more
 * specific first (Cursor's "cursor-vscode" before VS Code, Claude Code's "claude-code" before
 * Claude Desktop's "claude-ai"). Each was seen from the client itself or read in its source.
 */
const PATTERNS: readonly (readonly [RegExp, string])[] = [
  [/cursor-agent|cursor-cli/, 'cursor-cli'],
  [/cursor/, 'cursor'],
  [/windsurf.*jetbrains|jetbrains.*windsurf/, 'windsurf-jetbrains'],
  [/windsurf|codeium|cascade/, 'windsurf'],
  [/insiders/, 'vscode-insiders'],
  [/visual studio code|vscode|vs code/, 'vscode'],
  [/^visual studio/, 'visual-studio'],
  [/claude-code|claude code/, 'claude-code'],
  [/claude-ai|claude desktop|^claude$/, 'claude-desktop'],
  [/gemini-cli/, 'gemini-cli'],
  [/qwen/, 'qwen-code'],
  [/codex/, 'codex'],
  [/copilot/, 'copilot-cli'],
  [/opencode/, 'opencode'],
  // Kilo CLI 7.7 says "kilo" (seen on its initialize); the VS Code extension says "Kilo Code".
  [/^kilo$|kilo-cli|kilocode-cli/, 'kilo-cli'],
  [/kilo/, 'kilo-code'],
  [/roo/, 'roo-code'],
  [/cline/, 'cline'],
  [/^zed/, 'zed'],
  [/lm ?studio/, 'lmstudio'],
  [/goose/, 'goose'],
  [/continue/, 'continue'],
  [/antigravity/, 'antigravity'],
  [/droid|factory/, 'factory-droid'],
  [/kimi/, 'kimi-code'],
  [/junie/, 'junie'],
  [/auggie|augment/, 'auggie'],
  [/kiro/, 'kiro'],
  [/amazon q|amazon-q|q-cli|qchat/, 'amazon-q'],
  [/^amp\b/, 'amp'],
  [/crush/, 'crush'],
  [/devin/, 'devin'],
  [/vibe/, 'mistral-vibe'],
  [/qoder/, 'qoder'],
  [/trae/, 'trae'],
  [/witsy/, 'witsy'],
  [/^jan\b/, 'jan'],
  [/bolt ?ai/, 'boltai'],
  [/anythingllm/, 'anythingllm'],
  [/warp/, 'warp'],
  [/xcode/, 'xcode'],
];

/** The connector id a raw clientInfo name stands for, if Switchboard knows the client. */
export function clientIdFromInfo(clientInfoName: string): string | undefined {
  const n = clientInfoName.toLowerCase();
  if (n === '' || n === 'unknown') return undefined;
  return PATTERNS.find(([re]) => re.test(n))?.[1];
}

/**
 * Who a client is, for a record or a list: its connector id when known (the connector that wrote
 * its entry, `--client`, which names it exactly; else what its clientInfo names), and the name to show.
 */
export function clientIdentity(clientInfoName: string, connector?: string): { id?: string; name: string } {
  const id = (connector !== undefined && connector in CLIENT_NAMES ? connector : undefined) ?? clientIdFromInfo(clientInfoName);
  return id ? { id, name: CLIENT_NAMES[id]! } : { name: clientInfoName || 'unknown' };
}

/** The name to show for a record's client: its known name, else the raw clientInfo name. */
export function clientDisplayName(clientInfoName: string, clientId?: string): string {
  if (clientId !== undefined && CLIENT_NAMES[clientId]) return CLIENT_NAMES[clientId]!;
  return clientIdentity(clientInfoName).name;
}

/**
 * The key records are grouped and filtered by client with: the connector id when one is known
 * (also for records stored before they kept one), else the raw clientInfo name.
 */
export function clientKey(clientInfoName: string, clientId?: string): string {
  return clientId ?? clientIdFromInfo(clientInfoName) ?? clientInfoName;
}

/**
 * What a person's "client" filter stands for, as a clientKey: a connector id ("gemini-cli"), a
 * name as shown ("Gemini CLI", any case) or a raw clientInfo name ("gemini-cli-mcp-client").
 */
export function clientFilterKey(text: string): string {
  const t = text.trim();
  if (t in CLIENT_NAMES) return t;
  const lower = t.toLowerCase();
  const shown = Object.entries(CLIENT_NAMES).find(([, name]) => name.toLowerCase() === lower);
  return shown?.[0] ?? clientKey(t);
}

/** A record's `clientId` field, spread into it: present when the client is known. */
export function clientIdField(clientInfoName: string, connector?: string): { clientId?: string } {
  const { id } = clientIdentity(clientInfoName, connector);
  return id ? { clientId: id } : {};
}
