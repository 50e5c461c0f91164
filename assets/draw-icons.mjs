// Draws the app and tray icons (two plugs joined by a cable) as PNGs, with no image library:
// run `node assets/draw-icons.mjs` after changing the shape.
import { deflateSync } from 'node:zlib';
import { writeFileSync } from 'node:fs';

const CRC = new Int32Array(256).map((_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c;
});
const crc32 = (buf) => {
  let c = -1;
  for (const b of buf) c = CRC[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ -1) >>> 0;
};
function chunk(type, data) {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const td = Buffer.concat([Buffer.from(type), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(td));
  return Buffer.concat([len, td, crc]);
}
function png(size, pixel) {
  const rows = [];
  for (let y = 0; y < size; y++) {
    const row = Buffer.alloc(1 + size * 4);
    for (let x = 0; x < size; x++) row.set(pixel((x + 0.5) / size, (y + 0.5) / size), 1 + x * 4);
    rows.push(row);
  }
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(size, 0);
  ihdr.writeUInt32BE(size, 4);
  ihdr.set([8, 6, 0, 0, 0], 8);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(Buffer.concat(rows))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}
const dist = (x, y, cx, cy) => Math.hypot(x - cx, y - cy);
/** Two dots joined by a line, in `fg`; `bg` fills a rounded square (null: transparent). */
function mark(fg, bg) {
  return (x, y) => {
    const dots = dist(x, y, 0.3, 0.7) < 0.13 || dist(x, y, 0.7, 0.3) < 0.13;
    const t = Math.max(0, Math.min(1, ((x - 0.3) * 0.4 + (y - 0.7) * -0.4) / 0.32));
    const line = dist(x, y, 0.3 + 0.4 * t, 0.7 - 0.4 * t) < 0.06;
    if (dots || line) return fg;
    if (bg && Math.max(Math.abs(x - 0.5), Math.abs(y - 0.5)) < 0.46) return bg;
    return [0, 0, 0, 0];
  };
}
const dir = new URL('.', import.meta.url);
writeFileSync(new URL('icon.png', dir), png(512, mark([255, 255, 255, 255], [47, 91, 211, 255])));
writeFileSync(new URL('tray.png', dir), png(32, mark([47, 91, 211, 255], null)));
// macOS template image: black with alpha, tinted by the menu bar.
writeFileSync(new URL('trayTemplate.png', dir), png(22, mark([0, 0, 0, 255], null)));
writeFileSync(new URL('trayTemplate@2x.png', dir), png(44, mark([0, 0, 0, 255], null)));
