// Hash routes (#/servers, #/runs/ID) so the app works from file:// in Electron and from serve.
import { PAGES, type PageId } from './pages.ts';

export { PAGES, type PageId };

function parse(hash: string): { page: PageId; arg: string | null } {
  const m = /^#\/([a-z]+)(?:\/(.+))?$/.exec(hash);
  const page = PAGES.find((p) => p.id === m?.[1])?.id ?? 'servers';
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
