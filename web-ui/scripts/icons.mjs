// Draws the app's icons (no downloads, no image library): PNGs at 192 and 512 px, a maskable 512 px one, and an SVG,
// into public/icons/. Run `node scripts/icons.mjs` after changing the design; the outputs are committed.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { deflateSync } from 'node:zlib';

const OUT = resolve(dirname(fileURLToPath(import.meta.url)), '../public/icons');
const BG = [0x10, 0x13, 0x1f];
const BOARD = [0x0a, 0x0d, 0x17];
// A 3 × 3 board, top-left lit like the logo: the blocks of an L, a domino and a dot.
const BLOCKS = [
  [0, 0, [0xff, 0xd2, 0x3f]], [1, 0, [0xff, 0xd2, 0x3f]], [2, 0, [0xff, 0xd2, 0x3f]], [2, 1, [0xff, 0xd2, 0x3f]],
  [0, 2, [0x5a, 0xd1, 0xff]], [1, 2, [0x5a, 0xd1, 0xff]], [1, 1, [0xff, 0x5d, 0x73]],
];

function crc32(buf) {
  let c = ~0;
  for (const b of buf) {
    c ^= b;
    for (let k = 0; k < 8; k++) c = (c >>> 1) ^ (0xedb88320 & -(c & 1));
  }
  return ~c >>> 0;
}

function chunk(type, data) {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const td = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(td));
  return Buffer.concat([len, td, crc]);
}

function png(size, pixel) {
  const raw = Buffer.alloc(size * (size * 4 + 1));
  for (let y = 0; y < size; y++) {
    raw[y * (size * 4 + 1)] = 0; // filter: none
    for (let x = 0; x < size; x++) {
      const [r, g, b, a] = pixel(x / size, y / size);
      raw.set([r, g, b, a], y * (size * 4 + 1) + 1 + x * 4);
    }
  }
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(size, 0);
  ihdr.writeUInt32BE(size, 4);
  ihdr.set([8, 6, 0, 0, 0], 8); // 8-bit RGBA
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', ihdr), chunk('IDAT', deflateSync(raw, { level: 9 })), chunk('IEND', Buffer.alloc(0))]);
}

const inRounded = (x, y, x0, y0, w, r) => {
  const cx = Math.min(Math.max(x, x0 + r), x0 + w - r);
  const cy = Math.min(Math.max(y, y0 + r), y0 + w - r);
  return x >= x0 && x <= x0 + w && y >= y0 && y <= y0 + w && (x - cx) ** 2 + (y - cy) ** 2 <= r * r;
};

/** The design in unit coordinates; `inset` shrinks the board (maskable icons keep their content in the middle 80%). */
function design(inset, roundedBackground) {
  const board = { x: inset, w: 1 - 2 * inset };
  const pitch = board.w / 3;
  return (x, y) => {
    if (roundedBackground && !inRounded(x, y, 0, 0, 1, 0.2)) return [0, 0, 0, 0];
    for (const [r, c, colour] of BLOCKS) {
      const bx = board.x + c * pitch + pitch * 0.06;
      const by = board.x + r * pitch + pitch * 0.06;
      if (inRounded(x, y, bx, by, pitch * 0.88, pitch * 0.14)) {
        // the bevel: lighter towards the top left, darker towards the bottom right
        const t = ((x - bx) + (y - by)) / (pitch * 0.88 * 2);
        const k = 1.25 - 0.5 * t;
        return [...colour.map((v) => Math.max(0, Math.min(255, Math.round(v * k)))), 255];
      }
    }
    if (inRounded(x, y, board.x - 0.02, board.x - 0.02, board.w + 0.04, 0.06)) return [...BOARD, 255];
    return [...BG, 255];
  };
}

mkdirSync(OUT, { recursive: true });
writeFileSync(`${OUT}/icon-192.png`, png(192, design(0.14, true)));
writeFileSync(`${OUT}/icon-512.png`, png(512, design(0.14, true)));
writeFileSync(`${OUT}/maskable-512.png`, png(512, design(0.22, false)));
const rect = (r, c, [R, G, B]) => `<rect x="${14 + c * 24 + 1.5}" y="${14 + r * 24 + 1.5}" width="21" height="21" rx="3.5" fill="rgb(${R},${G},${B})"/>`;
writeFileSync(`${OUT}/icon.svg`, `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100"><rect width="100" height="100" rx="20" fill="#10131f"/><rect x="12" y="12" width="76" height="76" rx="6" fill="#0a0d17"/>${BLOCKS.map(([r, c, col]) => rect(r, c, col)).join('')}</svg>\n`);
console.log(`icons written to ${OUT}`);
