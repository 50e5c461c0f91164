// A server log that never holds a secret: a server may print its own token to stderr (a debug
// dump of its env, an auth error echoing the header), and that text reaches a file, the UI and
// `lastError`. Redacted per whole line, so a secret split across stderr chunks is still caught.
import { redactSecrets } from '../records/redact.ts';
import { ServerLog, type ServerLogOptions } from './server-log.ts';

/** How long a list of secret values is reused, in ms: a chatty server must not re-read the store per line. */
const SECRETS_TTL_MS = 1000;

export class RedactingServerLog extends ServerLog {
  readonly #secrets: () => readonly string[];
  #cached: readonly string[] = [];
  #cachedAt = -Infinity;

  constructor(file: string, secrets: () => readonly string[], opts: ServerLogOptions = {}) {
    super(file, opts);
    this.#secrets = secrets;
  }

  override line(text: string): void {
    super.line(this.#redact(text));
  }

  override tail(lines: number): string[] {
    return super.tail(lines).map((l) => this.#redact(l));
  }

  override lastServerLine(): string | undefined {
    const l = super.lastServerLine();
    return l === undefined ? undefined : this.#redact(l);
  }

  #redact(text: string): string {
    const now = Date.now();
    if (now - this.#cachedAt > SECRETS_TTL_MS) {
      try {
        this.#cached = this.#secrets();
      } catch {
        this.#cached = [];
      }
      this.#cachedAt = now;
    }
    return redactSecrets(text, this.#cached);
  }
}
