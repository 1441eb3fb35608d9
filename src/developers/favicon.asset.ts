// The service's icon: a ring on the accent colour of the developer pages. Browsers ask for /favicon.ico on any page
// that names no icon (openapi.json opened in a tab too) and log the 404 as a console error, so both forms are served:
// SVG for the pages that link it, ICO for everything else. The shapes are declared once and drawn into both.

/** Side of the square, pixels (and SVG user units). */
const SIZE = 32;
const CORNER = 7;
const BACKGROUND = [0x8a, 0x3b, 0x5c] as const;
const RING = { cx: 16, cy: 18, r: 8, width: 3 };
/** The stone on the ring: a triangle pointing down, `top` to `top + depth`. */
const STONE = { cx: 16, top: 4, halfWidth: 4, depth: 4 };

export const FAVICON_SVG = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${SIZE} ${SIZE}">\
<rect width="${SIZE}" height="${SIZE}" rx="${CORNER}" fill="#${BACKGROUND.map((c) => c.toString(16).padStart(2, '0')).join('')}"/>\
<circle cx="${RING.cx}" cy="${RING.cy}" r="${RING.r}" fill="none" stroke="#fff" stroke-width="${RING.width}"/>\
<path d="M${STONE.cx - STONE.halfWidth} ${STONE.top}h${2 * STONE.halfWidth}l-${STONE.halfWidth} ${STONE.depth}z" fill="#fff"/></svg>
`;

/** The `<link>` elements every HTML page carries: browsers that draw SVG icons take it, the rest the ICO. */
export const FAVICON_LINKS = '<link rel="icon" href="/favicon.ico" sizes="32x32">\n<link rel="icon" href="/favicon.svg" type="image/svg+xml">';

/** What covers a point of the icon: null outside the rounded square. */
function paint(x: number, y: number): 'background' | 'white' | null {
  const dx = Math.max(CORNER - x, 0, x - (SIZE - CORNER));
  const dy = Math.max(CORNER - y, 0, y - (SIZE - CORNER));
  if (dx * dx + dy * dy > CORNER * CORNER) return null;
  if (Math.abs(Math.hypot(x - RING.cx, y - RING.cy) - RING.r) <= RING.width / 2) return 'white';
  const below = y - STONE.top;
  if (below >= 0 && below <= STONE.depth && Math.abs(x - STONE.cx) <= STONE.halfWidth * (1 - below / STONE.depth)) return 'white';
  return 'background';
}

/**
 * The icon as a 32×32 ICO (one 32-bit BMP image, straight alpha), each pixel averaged over 4×4 samples so that the
 * ring's edges are smooth. Built once per process.
 */
function drawIco(): Uint8Array {
  const samples = 4;
  const pixels = Buffer.alloc(SIZE * SIZE * 4);
  for (let row = 0; row < SIZE; row++) {
    for (let col = 0; col < SIZE; col++) {
      let [r, g, b, covered] = [0, 0, 0, 0];
      for (let i = 0; i < samples * samples; i++) {
        const hit = paint(col + ((i % samples) + 0.5) / samples, row + (Math.floor(i / samples) + 0.5) / samples);
        if (!hit) continue;
        const [cr, cg, cb] = hit === 'white' ? [255, 255, 255] : BACKGROUND;
        [r, g, b, covered] = [r + cr, g + cg, b + cb, covered + 1];
      }
      // BMP rows run bottom-up, each pixel blue, green, red, alpha.
      const at = ((SIZE - 1 - row) * SIZE + col) * 4;
      if (covered) pixels.set([b / covered, g / covered, r / covered, (255 * covered) / (samples * samples)].map(Math.round), at);
    }
  }
  // The AND mask (one bit a pixel, rows padded to 4 bytes) is unused with an alpha channel, but must be present.
  const mask = Buffer.alloc(SIZE * 4);
  const header = Buffer.alloc(6 + 16 + 40);
  header.writeUInt16LE(1, 2); // type: icon
  header.writeUInt16LE(1, 4); // one image
  header.writeUInt8(SIZE, 6);
  header.writeUInt8(SIZE, 7);
  header.writeUInt16LE(1, 10); // planes
  header.writeUInt16LE(32, 12); // bits per pixel
  header.writeUInt32LE(40 + pixels.length + mask.length, 14);
  header.writeUInt32LE(22, 18); // the image starts after this directory
  header.writeUInt32LE(40, 22); // BITMAPINFOHEADER
  header.writeInt32LE(SIZE, 26);
  header.writeInt32LE(SIZE * 2, 30); // colour image and mask, stacked
  header.writeUInt16LE(1, 34);
  header.writeUInt16LE(32, 36);
  header.writeUInt32LE(pixels.length + mask.length, 42);
  return Buffer.concat([header, pixels, mask]);
}

let ico: Uint8Array | undefined;
export const faviconIco = (): Uint8Array => (ico ??= drawIco());
