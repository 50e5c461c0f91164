// Control connections on the engine socket: newline-delimited JSON requests and responses.
import type { Socket } from 'node:net';
import type { ControlRequest, ControlResponse } from '../../../src-shared/api.ts';
import { toErrorData } from '../../../src-shared/errors.ts';
import type { ControlHandler } from './control-handlers.ts';

export function serveControlConnection(sock: Socket, control: ControlHandler, initial: Buffer): void {
  let buf = '';
  const onChunk = (chunk: Buffer | string) => {
    buf += chunk.toString();
    let nl: number;
    while ((nl = buf.indexOf('\n')) !== -1) {
      const line = buf.slice(0, nl);
      buf = buf.slice(nl + 1);
      if (line.trim() === '') continue;
      let req: ControlRequest;
      try {
        req = JSON.parse(line);
      } catch {
        sock.write(JSON.stringify({ id: -1, error: { code: 'bad-request', message: 'not JSON' } }) + '\n');
        continue;
      }
      void control
        .handle(req.method, req.params)
        .then(
          (result): ControlResponse => ({ id: req.id, result }),
          (err): ControlResponse => ({ id: req.id, error: toErrorData(err) }),
        )
        .then((res) => {
          if (!sock.destroyed) sock.write(JSON.stringify(res) + '\n');
        });
    }
  };
  if (initial.length) onChunk(initial);
  sock.on('data', onChunk);
}
