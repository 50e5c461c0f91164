// What tying a server's requests to their call costs on a Streamable HTTP upstream
// (src-main/engine/upstream/stream-ties.ts): the same event streams read through the plain fetch
// and through the tying fetch, interleaved so noise hits both alike, each read as the SDK's
// client transport reads it (decoded text, chunk by chunk). Run alone with
// `node --import tsx bench/stream-ties.ts`; prints p50 per shape and the ratio.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { CALL_HEADER, StreamTies } from '../src-main/engine/upstream/stream-ties.ts';

const SHAPES: Record<string, string> = {
  // A call answered with one small result event.
  'one small result': event({ jsonrpc: '2.0', id: 1, result: { content: [{ type: 'text', text: 'ok' }] } }),
  // 200 progress notifications, a question, then the result.
  '200 notes + question + result': Array.from({ length: 200 }, (_, i) => event({ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 1, progress: i } })).join('') +
    event({ jsonrpc: '2.0', id: 7, method: 'elicitation/create', params: { message: 'name?' } }) +
    event({ jsonrpc: '2.0', id: 1, result: { content: [] } }),
  // A 10 MB result in one event.
  '10 MB result': event({ jsonrpc: '2.0', id: 1, result: { content: [{ type: 'text', text: 'x'.repeat(10 * 1024 * 1024) }] } }),
};

function event(msg: unknown): string {
  return `event: message\ndata: ${JSON.stringify(msg)}\n\n`;
}

function p50(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

const server = http.createServer((req, res) => {
  const shape = decodeURIComponent(new URL(req.url!, 'http://x').searchParams.get('shape')!);
  res.writeHead(200, { 'content-type': 'text/event-stream' });
  res.end(SHAPES[shape]);
});
await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
const ties = new StreamTies();
const tied = ties.fetch();

async function read(f: typeof fetch | ReturnType<StreamTies['fetch']>, shape: string, headers: Record<string, string>): Promise<number> {
  const t0 = performance.now();
  const r = await f(`${base}?shape=${encodeURIComponent(shape)}`, { method: 'POST', headers });
  // Read as the SDK's transport reads an event stream: decoded text, chunk by chunk.
  for await (const _ of r.body!.pipeThrough(new TextDecoderStream()));
  return performance.now() - t0;
}

console.log('| stream | plain fetch p50 | tying fetch p50 | ratio |');
console.log('| --- | --- | --- | --- |');
for (const shape of Object.keys(SHAPES)) {
  const n = shape.startsWith('10 MB') ? 15 : 200;
  const plain: number[] = [];
  const tying: number[] = [];
  for (let i = 0; i < n; i++) {
    plain.push(await read(fetch, shape, {}));
    tying.push(await read(tied, shape, { [CALL_HEADER]: '1' }));
  }
  const a = p50(plain);
  const b = p50(tying);
  console.log(`| ${shape} | ${a.toFixed(2)} ms | ${b.toFixed(2)} ms | ${(b / a).toFixed(2)}x |`);
}
if (ties.take(7) !== 1) throw new Error('the question was not tied to its call');
server.close();
