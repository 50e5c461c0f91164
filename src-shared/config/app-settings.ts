// config.json `settings` with the defaults filled in, as `status --json` reports them: the one
// place that says what an absent key means.
import type { AppSettings } from './schema.ts';
import type { UpdateChannel } from '../updates.ts';

export interface AppSettingsInForce {
  startAtLogin: boolean;
  checkForUpdates: boolean;
  updateChannel: UpdateChannel;
}

export function appSettings(settings: AppSettings | undefined): AppSettingsInForce {
  return {
    startAtLogin: settings?.startAtLogin !== false,
    checkForUpdates: settings?.checkForUpdates !== false,
    updateChannel: settings?.updateChannel ?? 'stable',
  };
}
