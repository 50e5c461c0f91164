// `switchboard clients [--json]`: every client Switchboard knows, where its file is on this OS,
// whether it looks installed and which profiles it is connected to (docs/clients.md).
import { listConnectors } from '../../engine/clients/connector.ts';
import { parseFlags } from '../args.ts';
import type { CliContext } from '../command-context.ts';

export interface ClientListing {
  id: string;
  name: string;
  /** '' for copy-paste clients (no file: `connect` prints steps instead). */
  configPath: string;
  /** 'file': connect writes configPath; 'copy-paste': the client's list lives in its own UI. */
  kind: 'file' | 'copy-paste';
  installed: boolean;
  connected: string[];
  /** Why the file could not be read, when it could not (the list still shows every other client). */
  problem?: string;
}

export async function listClients(ctx: Pick<CliContext, 'home' | 'env' | 'platform'>): Promise<ClientListing[]> {
  return Promise.all(
    listConnectors({ home: ctx.home, env: ctx.env, platform: ctx.platform }).map(async (c) => {
      const base = { id: c.id, name: c.displayName, configPath: c.configPath(), kind: c.kind, installed: c.installed() };
      try {
        return { ...base, connected: await c.connectedProfiles() };
      } catch (err) {
        return { ...base, connected: [], problem: (err as Error).message };
      }
    }),
  );
}

export async function run(args: string[], ctx: CliContext): Promise<number> {
  const { values } = parseFlags('clients', args, { json: { type: 'boolean' } });
  const list = await listClients(ctx);
  if (values.json) {
    ctx.stdout(JSON.stringify(list, null, 2) + '\n');
    return 0;
  }
  const idWidth = Math.max(...list.map((c) => c.id.length));
  for (const c of list) {
    const state = c.problem ? `unreadable: ${c.problem}` : c.connected.length ? `connected: ${c.connected.join(', ')}` : c.installed ? 'installed' : 'not installed';
    const where = c.kind === 'copy-paste' ? `copy-paste: "switchboard connect ${c.id} --profile NAME" prints the steps` : c.configPath;
    ctx.stdout(`${c.id.padEnd(idWidth)}  ${c.name} · ${state}\n${' '.repeat(idWidth)}  ${where}\n`);
  }
  return 0;
}
