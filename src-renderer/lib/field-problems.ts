// Puts the engine's config problems (each with a dotted path) next to the form fields they are about.
import type { ErrorData } from '../../src-shared/errors.ts';

export function problemsByField<F extends string>(
  problems: NonNullable<ErrorData['problems']>,
  fieldFor: (path: string) => F,
): Partial<Record<F, string>> {
  const out: Partial<Record<F, string>> = {};
  for (const p of problems) {
    const f = fieldFor(p.path);
    out[f] = out[f] ? `${out[f]} ${p.message}` : p.message;
  }
  return out;
}
