// Hash routes (#/servers, #/runs/ID) so the app works from file:// in Electron and from serve.
import { PAGES, type PageId as SidebarPageId } from './pages.ts';

/** Pages reached by a link rather than from the sidebar. */
export const OTHER_PAGES = ['welcome'] as const;
export type PageId = SidebarPageId | (typeof OTHER_PAGES)[number];
const isPage = (id: string | undefined): id is PageId => PAGES.some((p) => p.id === id) || OTHER_PAGES.some((p) => p === id);

export { PAGES };

function parse(hash: string): { page: PageId; arg: string | null } {
  const m = /^#\/([a-z]+)(?:\/(.+))?$/.exec(hash);
  const page = isPage(m?.[1]) ? m[1] : 'servers';
  return { page, arg: m?.[2] ? decodeURIComponent(m[2]) : null };
}

export class Router {
  page = $state<PageId>('servers');
  arg = $state<string | null>(null);
  #onHash = () => this.#read();

  constructor() {
    this.#read();
    window.addEventListener('hashchange', this.#onHash);
  }

  href(page: PageId, arg?: string): string {
    return `#/${page}${arg ? `/${encodeURIComponent(arg)}` : ''}`;
  }

  go(page: PageId, arg?: string): void {
    location.hash = this.href(page, arg);
  }

  #read(): void {
    const r = parse(location.hash);
    this.page = r.page;
    this.arg = r.arg;
  }

  dispose(): void {
    window.removeEventListener('hashchange', this.#onHash);
  }
}
