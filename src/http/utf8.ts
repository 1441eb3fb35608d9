import { transcode } from 'node:buffer';

/** Below this many characters Node's own encoder is as fast as the conversion below (measured: equal at ~2,000). */
const TRANSCODE_MIN_CHARS = 2048;
/** Texts up to this many characters are copied into the reused buffer below; a longer one gets a buffer of its own. */
const SCRATCH_MAX_CHARS = 256 * 1024;
/** The UTF-16 copy of the text being encoded, reused: a fresh one per body cost twice its characters in bytes. */
let scratch = Buffer.allocUnsafe(0);

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
    return transcode(utf16Of(text), 'utf16le', 'utf8') as Buffer<ArrayBuffer>;
  } catch {
    return Buffer.from(text);
  }
}

/** The text's UTF-16 code units, in the reused buffer when it fits (read at once: nothing awaits in between). */
function utf16Of(text: string): Buffer {
  if (text.length > SCRATCH_MAX_CHARS) return Buffer.from(text, 'utf16le');
  if (scratch.length < text.length * 2) scratch = Buffer.allocUnsafe(Math.min(SCRATCH_MAX_CHARS, text.length * 4) * 2);
  return scratch.subarray(0, scratch.write(text, 0, 'utf16le'));
}
