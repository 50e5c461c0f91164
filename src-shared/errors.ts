// Errors cross process boundaries as data: a stable code and a sentence a person can act on.
export type ErrorCode =
  | 'bad-request'
  | 'bad-path'
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
