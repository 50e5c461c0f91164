// Errors cross process boundaries as data: a stable code and a sentence a person can act on.
export type ErrorCode =
  | 'bad-request'
  | 'bad-path'
  /** The change expected something absent (or unchanged) that another writer got to first. */
  | 'conflict'
  | 'invalid-config'
  | 'not-found'
  | 'unknown-profile'
  | 'unknown-server'
  | 'unknown-tool'
  | 'denied'
  | 'server-unavailable'
  | 'timeout'
  | 'cancelled'
  | 'upstream-error'
  | 'engine-unavailable'
  | 'secret-missing'
  | 'io-error'
  | 'internal';

export interface ErrorData {
  code: ErrorCode;
  message: string;
  /** Config problems, for invalid-config. */
  problems?: { path: string; message: string; line?: number; column?: number }[];
}

export class SwitchboardError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly problems?: ErrorData['problems'],
  ) {
    super(message);
    this.name = 'SwitchboardError';
  }

  toData(): ErrorData {
    return this.problems ? { code: this.code, message: this.message, problems: this.problems } : { code: this.code, message: this.message };
  }
}

export function toErrorData(err: unknown): ErrorData {
  if (err instanceof SwitchboardError) return err.toData();
  if (err && typeof err === 'object' && 'code' in err && 'message' in err && typeof (err as ErrorData).message === 'string' && typeof (err as ErrorData).code === 'string') {
    return { code: (err as ErrorData).code, message: (err as ErrorData).message };
  }
  return { code: 'internal', message: err instanceof Error ? err.message : String(err) };
}

/** The `_meta` key of a failed tool result that carries its ErrorData (the text is the message alone). */
export const ERROR_META = 'switchboard/error';

/**
 * The HTTP status of each error code, for /api and anything else that answers over HTTP: the
 * caller's mistake (4xx) or ours and our upstreams' (5xx). A new code must be given one here.
 */
const HTTP_STATUS: Record<ErrorCode, number> = {
  'bad-request': 400,
  'bad-path': 400,
  'invalid-config': 400,
  'denied': 403,
  'not-found': 404,
  'unknown-profile': 404,
  'unknown-server': 404,
  'unknown-tool': 404,
  'secret-missing': 409,
  'conflict': 409,
  'cancelled': 500,
  'internal': 500,
  'io-error': 500,
  'upstream-error': 502,
  'server-unavailable': 503,
  'engine-unavailable': 503,
  'timeout': 504,
};

/** The HTTP status to answer an error with; 500 for a code this build does not know. */
export function httpStatusFor(code: string): number {
  return Object.hasOwn(HTTP_STATUS, code) ? HTTP_STATUS[code as ErrorCode] : 500;
}
