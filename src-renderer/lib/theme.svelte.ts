// Light/dark theme: follows the system unless the user picks one; the choice is remembered.
export type ThemeChoice = 'system' | 'light' | 'dark';
const KEY = 'switchboard.theme';

export class Theme {
  choice = $state<ThemeChoice>('system');

  constructor() {
    const saved = globalThis.localStorage?.getItem(KEY);
    if (saved === 'light' || saved === 'dark') this.choice = saved;
    this.#apply();
  }

  set(choice: ThemeChoice): void {
    this.choice = choice;
    if (choice === 'system') localStorage.removeItem(KEY);
    else localStorage.setItem(KEY, choice);
    this.#apply();
  }

  /** Cycles system → light → dark, for the toggle in the sidebar. */
  toggle(): void {
    this.set(this.choice === 'system' ? 'light' : this.choice === 'light' ? 'dark' : 'system');
  }

  #apply(): void {
    if (typeof document === 'undefined') return;
    if (this.choice === 'system') delete document.documentElement.dataset.theme;
    else document.documentElement.dataset.theme = this.choice;
  }
}
