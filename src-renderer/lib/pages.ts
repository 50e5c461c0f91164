// The app's pages in the order the sidebar lists them (no DOM, no runes: the UI tests read it too).
export const PAGES = [
  { id: 'servers', label: 'Servers' },
  { id: 'profiles', label: 'Profiles' },
  { id: 'playground', label: 'Playground' },
  { id: 'runs', label: 'Runs' },
  { id: 'audit', label: 'Audit' },
  { id: 'connect', label: 'Connect' },
  { id: 'catalog', label: 'Catalog' },
  { id: 'settings', label: 'Settings' },
] as const;
export type PageId = (typeof PAGES)[number]['id'];
