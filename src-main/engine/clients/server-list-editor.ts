// The server list inside a client's config file, edited the same way whatever the file's format:
// one editor per format (JSON and JSONC: json-entry-edit.ts; TOML tables and `[[lists]]`:
// toml-entry-edit.ts; YAML maps and lists: yaml-entry-edit.ts), each touching only the entry's
// own bytes. The connector picks the editor once, from the client's catalog entry.
import type { ClientSpec } from './client-specs.ts';
import { jsonServerList, type Layout } from './json-entry-edit.ts';

/** What a connect had to create around its entry, so that disconnect can take it out again. */
export type Created = 'none' | 'container' | 'empty-file';

export interface ServerListEditor {
  /** The entries by name; undefined when the file has no server list. Throws ClientFileError when the file does not parse. */
  read(text: string, file: string): Record<string, unknown> | undefined;
  /** The text with `name` added or replaced, and what had to be created for it. */
  set(text: string, name: string, entry: Record<string, unknown>, layout: Layout, file: string): { text: string; created: Created };
  /** The text without `name`; `created` (from the connect that added it) says what to take out with it. */
  remove(text: string, name: string, file: string, created: Created): string;
}

/**
 * The editor for the client's format. The TOML and YAML editors, with their parsers (~200 KB of
 * code), load on first use: an engine that never edits such a file need not hold them
 * (docs/measurements.md, "Hot path").
 */
export async function serverListEditor(spec: Pick<ClientSpec, 'format' | 'container' | 'tomlList' | 'yaml'>): Promise<ServerListEditor> {
  switch (spec.format) {
    case 'toml': {
      const { tomlListServerList, tomlTableServerList } = await import('./toml-entry-edit.ts');
      return spec.tomlList ? tomlListServerList(spec.container[0]!, spec.tomlList.nameField) : tomlTableServerList(spec.container[0]!);
    }
    case 'yaml': {
      const { yamlServerList } = await import('./yaml-entry-edit.ts');
      return yamlServerList({ container: spec.container[0]!, style: 'map', ...spec.yaml });
    }
    case 'json':
      return jsonServerList(spec.container);
  }
}
