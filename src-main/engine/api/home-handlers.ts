// The control methods that need the home's files and nothing of a running engine: config.json's
// reads and edits, the MCP clients' config files (connect, import), removing the demo. The
// engine's ControlHandler serves them; with no engine running, the CLI runs these very handlers in
// its own process over the same store (src-main/cli/home-control.ts). So a config change takes one
// code path whichever process makes it: one read-modify-write of config.json under its file lock
// (ConfigStore.set/unset/update), never a read in one call and a write in the next.
import type { ControlApi } from '../../../src-shared/api.ts';
import { SwitchboardError } from '../../../src-shared/errors.ts';
import type { ConfigStore } from '../config/store.ts';
import { clientHandlers } from '../clients/client-control.ts';
import type { ConnectorOptions } from '../clients/connector.ts';
import { removeDemo } from '../clients/demo-removal.ts';
import { defaultShimEntry } from '../platform/shim-entry.ts';

export interface HomeHandlerDeps extends ConnectorOptions {
  /** No --home / $SWITCHBOARD_HOME in force: client entries then leave out --home. */
  homeIsDefault: boolean;
  /** config.json, as the engine's store or one the CLI opened for this command. */
  config: Pick<ConfigStore, 'config' | 'raw' | 'get' | 'set' | 'unset' | 'update' | 'text'>;
  /** config.json's path, for `config.text`. */
  configFile: string;
}

type ClientMethod = keyof ReturnType<typeof clientHandlers>;
export type HomeMethod = 'config.get' | 'config.set' | 'config.unset' | 'config.text' | 'demo.remove' | ClientMethod;
export type HomeHandlers = { [M in HomeMethod]: (params: ControlApi[M]['params']) => Promise<ControlApi[M]['result']> | ControlApi[M]['result'] };

/** A change names what it changes: an empty path would replace the whole file. */
function settingPath(path: string): string {
  if (path === '') throw new SwitchboardError('bad-request', 'Missing the config path.');
  return path;
}

export function homeHandlers(d: HomeHandlerDeps): HomeHandlers {
  const { config } = d;
  const shimEntry = (profile: string) => defaultShimEntry(d.home, d.homeIsDefault, profile);
  return {
    'config.get': (p) => {
      const r = config.get(p.path);
      return { found: r.found, value: r.value };
    },
    'config.set': async (p) => {
      await config.set(settingPath(p.path), p.value, { ifAbsent: p.ifAbsent === true });
      return { ok: true };
    },
    'config.unset': async (p) => ({ ok: true, removed: await config.unset(settingPath(p.path)) }),
    'config.text': () => ({ text: config.text(), file: d.configFile }),
    ...clientHandlers({
      home: d.home,
      homeIsDefault: d.homeIsDefault,
      env: d.env,
      platform: d.platform,
      profiles: () => Object.keys(config.config.profiles),
      raw: () => config.raw,
      updateConfig: (mutate) => config.update(mutate),
    }),
    'demo.remove': () => removeDemo({ home: d.home, env: d.env, platform: d.platform, updateConfig: (mutate) => config.update(mutate), shimEntry }),
  };
}
