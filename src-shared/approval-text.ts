// The words of an approval question, the same in the client's elicitation, the app's card and
// the tray notification: which app asked, the tool by its title and what it does, the arguments
// as `key: value` lines, and what each answer does. No run ids, no JSON.

/** What the two answers do, said once for every place that asks. */
export const ALLOW_MEANS = 'Allow: the tool runs this once.';
export const DENY_MEANS = "Don't allow: the tool will not run; the code gets an error it can handle.";

/** The form's one field (elicitation): Accept with the default is an allow; decline is a denial. */
export const ALLOW = 'Allow';
export const DONT_ALLOW = "Don't allow";

/** `text` cut to `max` characters on a word boundary when it can, with an ellipsis. */
export function cutText(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (flat.length <= max) return flat;
  const head = flat.slice(0, max - 1);
  const space = head.lastIndexOf(' ');
  return `${space > max * 0.6 ? head.slice(0, space) : head}…`;
}

function valueText(v: unknown): string {
  if (typeof v === 'string') return v;
  if (v === null || typeof v === 'number' || typeof v === 'boolean') return String(v);
  if (v === undefined) return '';
  if (Array.isArray(v) && v.every((x) => x === null || ['string', 'number', 'boolean'].includes(typeof x))) return v.join(', ');
  return JSON.stringify(v);
}

/**
 * The arguments as lines `key: value` (nested values as compact text), each cut to `width`,
 * at most `maxLines` of them (then a line saying how many more).
 */
export function argumentLines(args: unknown, opts: { width?: number; maxLines?: number } = {}): string[] {
  const width = opts.width ?? 120;
  const maxLines = opts.maxLines ?? 12;
  const entries: [string, unknown][] =
    args !== null && typeof args === 'object' && !Array.isArray(args) ? Object.entries(args as Record<string, unknown>) : args === undefined ? [] : [['value', args]];
  const lines = entries.slice(0, maxLines).map(([k, v]) => cutText(`${k}: ${valueText(v)}`, width));
  if (entries.length > maxLines) lines.push(`…and ${entries.length - maxLines} more`);
  return lines;
}

export interface ApprovalSubject {
  /** The app that asked, as its name is known (e.g. "Claude Desktop"). */
  client: string;
  /** As written in code, e.g. `vault.delete_item`. */
  name: string;
  title?: string;
  description?: string;
  args: unknown;
}

/** The tool as a person reads it: its title with the code name after, or the code name alone. */
export function toolLabel(s: Pick<ApprovalSubject, 'name' | 'title'>): string {
  return s.title ? `“${s.title}” (${s.name})` : s.name;
}

/** The question put to the person, in plain text (the client's elicitation message, the tray). */
export function approvalQuestion(s: ApprovalSubject, opts: { descriptionMax?: number; argLines?: number } = {}): string {
  const parts = [`${s.client} wants to use ${toolLabel(s)} from code it runs through Switchboard.`];
  if (s.description) parts.push(`What it does: ${cutText(s.description, opts.descriptionMax ?? 300)}`);
  const lines = argumentLines(s.args, { maxLines: opts.argLines ?? 12 });
  parts.push(lines.length ? `With:\n${lines.map((l) => `  ${l}`).join('\n')}` : 'With no arguments.');
  parts.push(`${ALLOW_MEANS}\n${DENY_MEANS}`);
  return parts.join('\n\n');
}
