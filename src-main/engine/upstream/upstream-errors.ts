// The sentences an upstream failure turns into: every error a caller or the Servers page sees
// says what happened to which server and, where it can, what to do about it.
import { ProtocolError, ProtocolErrorCode, SdkError, SdkErrorCode } from '@modelcontextprotocol/client';
import { McpError, ErrorCode } from '@modelcontextprotocol/sdk/types.js';
import type { ServerState } from '../../../src-shared/api.ts';
import { SwitchboardError } from '../../../src-shared/errors.ts';
import type { ChildExit } from './stdio-transport.ts';
import { waitingServerSentence } from '../trust/why-unavailable.ts';

export interface FailureContext {
  name: string;
  url?: string;
  /** Set when the child process has exited. */
  exit?: ChildExit;
  /** The last line the server wrote to stderr. */
  lastLine?: string;
  startTimeoutMs: number;
}

function how(exit: ChildExit): string {
  return exit.signal ? `was killed by ${exit.signal}` : `exited with code ${exit.code}`;
}

/** True for "the connection went away" in either SDK generation. */
export function isConnectionClosed(err: unknown): boolean {
  return (
    (err instanceof SdkError && err.code === SdkErrorCode.ConnectionClosed) ||
    (err instanceof McpError && err.code === ErrorCode.ConnectionClosed) ||
    (err instanceof Error && (err.message === 'Not connected' || (err instanceof SdkError && err.code === SdkErrorCode.NotConnected)))
  );
}

export function isTimeout(err: unknown): boolean {
  return (err instanceof SdkError && err.code === SdkErrorCode.RequestTimeout) || (err instanceof McpError && err.code === ErrorCode.RequestTimeout);
}

/** Why a server did not come up, for lastError and the log. */
export function startErrorMessage(err: unknown, c: FailureContext): string {
  if (err instanceof SwitchboardError) return err.message;
  const detail = c.lastLine ? `: ${c.lastLine}` : '';
  if (c.exit) return `${c.name} ${how(c.exit)} before it was ready${detail}`;
  if (isTimeout(err)) return `${c.name} did not answer initialize within ${Math.round(c.startTimeoutMs / 1000)} s${detail}`;
  const message = err instanceof Error ? err.message : String(err);
  if (err instanceof ProtocolError && err.code === ProtocolErrorCode.UnsupportedProtocolVersion) {
    return `${c.name} speaks no MCP revision this gateway speaks (${message})`;
  }
  if (c.url !== undefined) return `${c.name} could not connect to ${c.url}: ${message}`;
  return `${c.name} failed to start: ${message}${detail}`;
}

/** lastError after a ready server's connection ended on its own. */
export function crashMessage(c: FailureContext): string {
  return `${c.name} ${c.exit ? how(c.exit) : 'closed the connection'}${c.lastLine ? `: ${c.lastLine}` : ''}`;
}

/** Why a server cannot take calls right now. */
export function unavailableError(name: string, state: ServerState, disposed: boolean, lastError: string | null): SwitchboardError {
  if (disposed) return new SwitchboardError('server-unavailable', `${name} was stopped`);
  switch (state) {
    case 'disabled':
      return new SwitchboardError('server-unavailable', `${name} is disabled in config.json`);
    case 'failed':
      return new SwitchboardError('server-unavailable', `${name} is not running: ${lastError ?? 'it failed to start'}`);
    case 'needs-approval':
      return new SwitchboardError('server-unavailable', waitingServerSentence(name));
    default:
      return new SwitchboardError('server-unavailable', `${name} is not ready yet (${state})`);
  }
}

/** A call's failure that is not a timeout, a cancellation or a sign-in. */
export function callFailure(err: unknown, what: string, onClosed: () => SwitchboardError, unavailable: () => SwitchboardError): SwitchboardError {
  if (err instanceof SwitchboardError) return err;
  if (err instanceof SdkError && err.code === SdkErrorCode.NotConnected) return unavailable();
  if (isConnectionClosed(err)) return err instanceof Error && err.message === 'Not connected' ? unavailable() : onClosed();
  const message = err instanceof Error ? err.message : String(err);
  const e = new SwitchboardError('upstream-error', `${what} failed: ${message}`);
  (e as Error).cause = err;
  return e;
}
