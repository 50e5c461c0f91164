// What code-mode code sees when it awaits a tool (docs/code-mode.md, "Results"). Pure.
//
// - `isError` → a failure carrying the tool's text, which the sandbox throws as an Error.
// - `structuredContent` (an object) → that object, as is.
// - Otherwise the content blocks: no block → undefined; one block → its value; several → an
//   array of their values in order (joining would lose the boundaries a tool chose).
//   text → parsed JSON when the whole text is JSON, else the string;
//   image/audio → a short note such as "[image: image/png, 12 KB]" (bytes would only waste the
//   model's context); an embedded text resource → { uri, mimeType?, text } with JSON text parsed;
//   an embedded binary resource → a note; a resource link → { uri, name, … } as sent.
import type { CallToolResult, ContentBlock } from '@modelcontextprotocol/sdk/types.js';

export type Unwrapped = { ok: true; value: unknown } | { ok: false; message: string };

const NO_MESSAGE = 'the tool reported an error without a message';

/** Size of base64 data in bytes, without decoding it. */
function base64Bytes(data: string): number {
  const clean = data.replace(/\s+/g, '');
  const padding = clean.endsWith('==') ? 2 : clean.endsWith('=') ? 1 : 0;
  return Math.max(0, Math.floor((clean.length * 3) / 4) - padding);
}

export function formatBytes(n: number): string {
  if (n < 1024) return `${n} bytes`;
  if (n < 1024 * 1024) return `${Math.round(n / 1024)} KB`;
  return `${(n / (1024 * 1024)).toFixed(1)} MB`;
}

/**
 * Whether JSON text can start with this character code: { [ " - 0-9 t f n. Prose is told apart
 * before JSON.parse is tried: a thrown SyntaxError costs more than the rest of unwrapping a result.
 */
function mayStartJson(c: number): boolean {
  return c === 123 || c === 91 || c === 34 || c === 45 || (c >= 48 && c <= 57) || c === 116 || c === 102 || c === 110;
}

/** Parses text that is JSON as a whole; anything else stays the string it was. */
export function parseJsonText(text: string): unknown {
  const t = text.trim();
  if (t === '' || !mayStartJson(t.charCodeAt(0))) return text;
  try {
    return JSON.parse(t);
  } catch {
    return text;
  }
}

function unwrapBlock(block: ContentBlock): unknown {
  switch (block.type) {
    case 'text':
      return parseJsonText(block.text);
    case 'image':
    case 'audio':
      return `[${block.type}: ${block.mimeType}, ${formatBytes(base64Bytes(block.data))}]`;
    case 'resource': {
      const r = block.resource;
      if ('text' in r && typeof r.text === 'string') {
        const isJson = r.mimeType === 'application/json' || r.mimeType?.endsWith('+json');
        return { uri: r.uri, ...(r.mimeType ? { mimeType: r.mimeType } : {}), text: isJson ? parseJsonText(r.text) : r.text };
      }
      const blob = 'blob' in r && typeof r.blob === 'string' ? r.blob : '';
      return `[resource: ${r.uri}, ${r.mimeType ?? 'binary'}, ${formatBytes(base64Bytes(blob))}]`;
    }
    case 'resource_link': {
      const { type: _type, ...link } = block;
      return link;
    }
    default:
      return block;
  }
}

function errorText(result: CallToolResult): string {
  const texts = (result.content ?? []).flatMap((b) => (b.type === 'text' && b.text.trim() !== '' ? [b.text.trim()] : []));
  return texts.length > 0 ? texts.join('\n') : NO_MESSAGE;
}

export function unwrapToolResult(result: CallToolResult): Unwrapped {
  if (result.isError) return { ok: false, message: errorText(result) };
  const structured = result.structuredContent;
  if (structured && typeof structured === 'object') return { ok: true, value: structured };
  const content = result.content ?? [];
  if (content.length === 0) return { ok: true, value: undefined };
  if (content.length === 1) return { ok: true, value: unwrapBlock(content[0]!) };
  return { ok: true, value: content.map(unwrapBlock) };
}
