// A 2026-07-28 server asks for input by answering a call with `input_required`: the questions
// (elicitation, sampling, roots) travel in that call's own result, so they belong to that call by
// construction. The SDK can answer them itself, but its handlers are not told whose call asked;
// so the connection takes the result back (`allowInputRequired`) and answers it here, for the
// call that made it, then retries the call with the answers, as the revision says.
import { isInputRequiredResult } from '@modelcontextprotocol/client';
import { SwitchboardError } from '../../../src-shared/errors.ts';

/** Rounds of questions one call may ask before it is given up (the SDK's own bound). */
export const MAX_INPUT_ROUNDS = 10;
/** Pause before retrying a round that carried only a requestState, in ms (the SDK's pacing). */
const STATE_ONLY_PAUSE_MS = 250;
/** What a server may ask inside `input_required`. */
const INPUT_METHODS = new Set(['elicitation/create', 'sampling/createMessage', 'roots/list']);

export interface InputRoundsDeps {
  /** `server.tool` (or `server method`), for messages. */
  what: string;
  /** The call's signal: aborting it stops the rounds. */
  signal: AbortSignal;
  /** Answers one question for this call. */
  answer(ask: { method: string; params?: Record<string, unknown> }, signal: AbortSignal): Promise<unknown>;
  /** Sends the call again with these params. */
  retry(params: Record<string, unknown>): Promise<Record<string, unknown>>;
}

/** The call's final result: `first` itself when it asked nothing, else after answering every round. */
export async function answerInputRounds(first: Record<string, unknown>, params: Record<string, unknown> | undefined, deps: InputRoundsDeps): Promise<Record<string, unknown>> {
  let result = first;
  for (let round = 1; isInputRequiredResult(result); round++) {
    if (round > MAX_INPUT_ROUNDS) throw new SwitchboardError('upstream-error', `${deps.what} still asked for input after ${MAX_INPUT_ROUNDS} rounds and was given up`);
    const asks = Object.entries(result.inputRequests ?? {});
    const responses: Record<string, unknown> = {};
    if (asks.length === 0) await pause(STATE_ONLY_PAUSE_MS, deps.signal);
    // Asked together; the first that fails stops the others.
    const round$ = new AbortController();
    const stop = () => round$.abort(deps.signal.reason);
    deps.signal.addEventListener('abort', stop, { once: true });
    try {
      await Promise.all(
        asks.map(async ([key, ask]) => {
          const a = ask as { method?: unknown; params?: unknown };
          if (typeof a?.method !== 'string' || !INPUT_METHODS.has(a.method)) {
            throw new SwitchboardError('upstream-error', `${deps.what} asked for input Switchboard cannot give (${String(a?.method)})`);
          }
          const p = a.params !== null && typeof a.params === 'object' && !Array.isArray(a.params) ? (a.params as Record<string, unknown>) : undefined;
          try {
            responses[key] = await deps.answer({ method: a.method, ...(p ? { params: p } : {}) }, round$.signal);
          } catch (err) {
            round$.abort(err);
            throw err;
          }
        }),
      );
    } finally {
      deps.signal.removeEventListener('abort', stop);
    }
    result = await deps.retry({
      ...params,
      ...(asks.length > 0 ? { inputResponses: responses } : {}),
      ...(result.requestState !== undefined ? { requestState: result.requestState } : {}),
    });
  }
  return result;
}

function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => (clearTimeout(timer), reject(signal.reason)), { once: true });
  });
}
