// A fetch for the SDK transports that lets concurrent calls share one token refresh.
// When an access token expires, every call in flight gets a 401 and asks to refresh with the
// same refresh token; servers that rotate refresh tokens accept only the first and answer the
// rest with invalid_grant, which would sign the user out. Requests that carry the same refresh
// token therefore share one answer.
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';

/** How long a refresh answer is replayed to latecomers holding the same old refresh token, in ms. */
const REPLAY_MS = 30_000;

interface Answer {
  status: number;
  statusText: string;
  headers: [string, string][];
  body: string;
}

export function refreshSingleFlight(base: FetchLike = fetch): FetchLike {
  const answers = new Map<string, Promise<Answer>>();
  return async (url, init) => {
    const token = refreshTokenOf(init?.body);
    if (!token) return base(url, init);
    let answer = answers.get(token);
    if (!answer) {
      answer = base(url, init).then(async (res) => ({
        status: res.status,
        statusText: res.statusText,
        headers: [...res.headers.entries()],
        body: await res.text(),
      }));
      answers.set(token, answer);
      const forget = () => setTimeout(() => answers.delete(token), REPLAY_MS).unref();
      answer.then(forget, () => answers.delete(token));
    }
    const a = await answer;
    return new Response(a.body, { status: a.status, statusText: a.statusText, headers: a.headers });
  };
}

function refreshTokenOf(body: unknown): string | undefined {
  let params: URLSearchParams | undefined;
  if (body instanceof URLSearchParams) params = body;
  else if (typeof body === 'string' && body.includes('grant_type=refresh_token')) params = new URLSearchParams(body);
  if (params?.get('grant_type') !== 'refresh_token') return undefined;
  return params.get('refresh_token') ?? undefined;
}
