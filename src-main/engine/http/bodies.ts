// Request bodies read within a cap, and JSON answers: what every route of the HTTP server shares.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { SwitchboardError } from '../../../src-shared/errors.ts';

export const TOO_LARGE = Symbol('too large');

/** A request body up to `max` bytes; a declared or actual larger one is not kept. */
export function readCappedBody(req: IncomingMessage, max: number): Promise<Buffer | typeof TOO_LARGE> {
  if (Number(req.headers['content-length']) > max) return Promise.resolve(TOO_LARGE);
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (c: Buffer) => {
      size += c.length;
      if (size <= max) return void chunks.push(c);
      req.off('data', onData);
      req.off('end', onEnd);
      chunks.length = 0;
      resolve(TOO_LARGE);
    };
    const onEnd = () => resolve(Buffer.concat(chunks));
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', reject);
  });
}

/** A request body up to `max` bytes; a larger one ends the connection and throws bad-request. */
export async function readBody(req: IncomingMessage, max: number): Promise<Buffer> {
  const body = await readCappedBody(req, max);
  if (body !== TOO_LARGE) return body;
  req.destroy();
  throw new SwitchboardError('bad-request', `The request body is larger than ${max} bytes.`);
}

export function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), 'cache-control': 'no-store' });
  res.end(text);
}
