import { transcode } from 'node:buffer';

/** Below this many characters Node's own encoder is as fast as the conversion below (measured: equal at ~2,000). */
const TRANSCODE_MIN_CHARS = 2048;

/**
 * The UTF-8 bytes of a response body, encoded once: its length, ETag and socket write then use them as they are.
 * Node 20's encoder (Buffer.from, TextEncoder, Buffer.byteLength, a socket write of a string) is slow on a venue page
 * with a few non-ASCII characters, and a body was encoded up to three times (length, ETag, write); copying its UTF-16
 * code units and converting them with ICU is several times faster (docs/performance.md, Levers). A text
 * with a lone surrogate, which ICU refuses, is encoded by Node, which writes U+FFFD for it as it always has; JSON
 * text never has one (JSON.stringify escapes them).
 */
export function utf8Bytes(text: string): Buffer<ArrayBuffer> {
  if (text.length < TRANSCODE_MIN_CHARS) return Buffer.from(text);
  try {
    return transcode(Buffer.from(text, 'utf16le'), 'utf16le', 'utf8') as Buffer<ArrayBuffer>;
  } catch {
    return Buffer.from(text);
  }
}
