// Control connections on the engine socket: newline-delimited JSON requests and responses.
import type { Socket } from 'node:net';
import type { ControlRequest, ControlResponse } from '../../../src-shared/api.ts';
import { toErrorData } from '../../../src-shared/errors.ts';
import { LineSplitter } from '../../shim/line-splitter.mjs';
import { MAX_MESSAGE_BYTES } from '../gateway/line-transport.ts';
import type { ControlHandler } from './control-handlers.ts';

export function serveControlConnection(sock: Socket, control: ControlHandler, initial: Buffer): void {
  const reply = (res: ControlResponse | { id: -1; error: { code: string; message: string } }) => {
    if (!sock.destroyed) sock.write(JSON.stringify(res) + '\n');
  };
  const lines = new LineSplitter({
    maxLineBytes: MAX_MESSAGE_BYTES,
    onOversized: () =>
      reply({ id: -1, error: { code: 'bad-request', message: `A message larger than ${MAX_MESSAGE_BYTES / 1024 / 1024} MB was dropped; send a smaller request (the connection is still open).` } }),
    onLine: (buf) => {
      const line = buf.toString('utf8');
      if (line.trim() === '') return;
      let req: ControlRequest;
      try {
        req = JSON.parse(line);
      } catch {
        reply({ id: -1, error: { code: 'bad-request', message: 'not JSON' } });
        return;
      }
      void control
        .handle(req.method, req.params)
        .then(
          (result): ControlResponse => ({ id: req.id, result }),
          (err): ControlResponse => ({ id: req.id, error: toErrorData(err) }),
        )
        .then(reply);
    },
  });
  if (initial.length) lines.push(initial);
  sock.on('data', (chunk: Buffer) => lines.push(chunk));
}
