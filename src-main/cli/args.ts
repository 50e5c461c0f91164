// Per-command flag parsing with errors that say what to type instead.
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { SwitchboardError } from '../../src-shared/errors.ts';

export function parseFlags<T extends NonNullable<ParseArgsConfig['options']>>(command: string, args: string[], options: T) {
  try {
    return parseArgs({ args, options, allowPositionals: true, strict: true });
  } catch (e) {
    throw new SwitchboardError('bad-request', `${command}: ${(e as Error).message.replace(/\. To specify.*$/s, '')}. See \`switchboard --help\`.`);
  }
}

export function intFlag(value: string | undefined, name: string, fallback: number): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new SwitchboardError('bad-request', `${name} expects a whole number, got "${value}".`);
  return n;
}
