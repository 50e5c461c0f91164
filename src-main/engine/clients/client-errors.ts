// Failures around client config files. The shared ErrorCode set is coarse on purpose; `reason`
// lets the CLI and the UI tell these cases apart without parsing the sentence.
import { SwitchboardError, type ErrorCode } from '../../../src-shared/errors.ts';
import { OWN_FILE_READ } from '../config/atomic-file.ts';

export type ClientErrorReason =
  | 'unknown-client'
  | 'not-installed'
  | 'unparseable'
  | 'unsupported-layout'
  | 'read-only'
  | 'permission-denied'
  | 'changed-during-write'
  | 'verify-failed'
  | 'nothing-to-undo'
  | 'changed-since-write'
  | 'cli-failed'
  | 'copy-paste-client'
  | 'not-a-file';

const CODES: Record<ClientErrorReason, ErrorCode> = {
  'unknown-client': 'not-found',
  'not-installed': 'not-found',
  unparseable: 'invalid-config',
  'unsupported-layout': 'invalid-config',
  'read-only': 'io-error',
  'permission-denied': 'io-error',
  'changed-during-write': 'io-error',
  'verify-failed': 'io-error',
  'nothing-to-undo': 'not-found',
  'changed-since-write': 'io-error',
  'cli-failed': 'upstream-error',
  'copy-paste-client': 'bad-request',
  'not-a-file': 'io-error',
};

export class ClientFileError extends SwitchboardError {
  constructor(
    readonly reason: ClientErrorReason,
    message: string,
  ) {
    super(CODES[reason], message);
    this.name = 'ClientFileError';
  }
}

/** Turns a Node file-system error into a sentence naming the file and what to do. */
export function fsErrorToClientError(err: unknown, file: string, doing: string): Error {
  const code = (err as NodeJS.ErrnoException | null)?.code;
  if (code === 'EACCES' || code === 'EPERM') {
    return new ClientFileError(
      'permission-denied',
      `Switchboard may not ${doing} ${file} (permission denied). Nothing was changed; check the file's and its folder's permissions.`,
    );
  }
  if (code === 'ENOTREG') {
    return new ClientFileError(
      'not-a-file',
      `${file} is not a regular file (a named pipe, a device or a folder is there); Switchboard did not ${doing} it. Move it away, then try again.`,
    );
  }
  if (code === 'EFBIG') {
    return new ClientFileError('not-a-file', `${file} is larger than ${OWN_FILE_READ.maxBytes / (1 << 20)} MB, too large for a settings file; Switchboard did not ${doing} it.`);
  }
  if (code === 'EROFS') {
    return new ClientFileError('read-only', `${file} is on a read-only disk; nothing was changed.`);
  }
  return err instanceof Error ? err : new Error(String(err));
}
