import { describe, expect, it } from 'vitest';
import { unwrapToolResult } from '../../../src-shared/codemode/unwrap.ts';

describe('unwrapToolResult', () => {
  it('returns structured content as the object', () => {
    const r = unwrapToolResult({ content: [{ type: 'text', text: 'ignored' }], structuredContent: { n: 1 } });
    expect(r).toEqual({ ok: true, value: { n: 1 } });
  });

  it('parses text that is JSON and keeps other text as a string', () => {
    expect(unwrapToolResult({ content: [{ type: 'text', text: ' [1, 2] ' }] })).toEqual({ ok: true, value: [1, 2] });
    expect(unwrapToolResult({ content: [{ type: 'text', text: 'hello {' }] })).toEqual({ ok: true, value: 'hello {' });
  });

  it('replaces images and audio with a short note of type and size', () => {
    const data = Buffer.alloc(12 * 1024).toString('base64');
    expect(unwrapToolResult({ content: [{ type: 'image', data, mimeType: 'image/png' }] })).toEqual({ ok: true, value: '[image: image/png, 12 KB]' });
    expect(unwrapToolResult({ content: [{ type: 'audio', data: 'AAAA', mimeType: 'audio/wav' }] })).toEqual({ ok: true, value: '[audio: audio/wav, 3 bytes]' });
  });

  it('gives several blocks as an array in order', () => {
    const r = unwrapToolResult({ content: [{ type: 'text', text: '{"a":1}' }, { type: 'text', text: 'plain' }] });
    expect(r).toEqual({ ok: true, value: [{ a: 1 }, 'plain'] });
  });

  it('gives no content as undefined', () => {
    expect(unwrapToolResult({ content: [] })).toEqual({ ok: true, value: undefined });
  });

  it('unwraps embedded resources and resource links', () => {
    const r = unwrapToolResult({
      content: [
        { type: 'resource', resource: { uri: 'file:///a.json', mimeType: 'application/json', text: '{"x":2}' } },
        { type: 'resource', resource: { uri: 'file:///b.bin', mimeType: 'application/octet-stream', blob: 'AAAA' } },
        { type: 'resource_link', uri: 'file:///c.txt', name: 'c' },
      ],
    });
    expect(r).toEqual({
      ok: true,
      value: [
        { uri: 'file:///a.json', mimeType: 'application/json', text: { x: 2 } },
        '[resource: file:///b.bin, application/octet-stream, 3 bytes]',
        { uri: 'file:///c.txt', name: 'c' },
      ],
    });
  });

  it('turns isError into a failure carrying the tool text', () => {
    expect(unwrapToolResult({ isError: true, content: [{ type: 'text', text: 'no such repo' }] })).toEqual({ ok: false, message: 'no such repo' });
    expect(unwrapToolResult({ isError: true, content: [] })).toEqual({ ok: false, message: 'the tool reported an error without a message' });
  });
});
