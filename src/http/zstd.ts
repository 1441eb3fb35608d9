import { compress, init } from '@bokuweb/zstd-wasm';

/**
 * zstd for answers, from a WebAssembly build of the reference library: Node 20's zlib has no zstd (it arrives in 22.15),
 * and native addons would need a compiler or a binary download at install. Loaded on the first answer a client asks
 * zstd for, so a process whose clients never do keeps none of its memory (a 16 MB WebAssembly heap).
 */
let loading: Promise<void> | undefined;

/** zstd's one-shot compression, once loaded: one frame (RFC 8878) of `bytes` at `level`, in memory of its own. */
export async function zstdCompressor(): Promise<(bytes: Uint8Array, level: number) => Buffer<ArrayBuffer>> {
  loading ??= init();
  await loading;
  return (bytes, level) => {
    const frame = compress(bytes, level);
    return Buffer.from(frame.buffer as ArrayBuffer, frame.byteOffset, frame.byteLength);
  };
}

export async function zstdCompress(bytes: Uint8Array, level: number): Promise<Buffer<ArrayBuffer>> {
  return (await zstdCompressor())(bytes, level);
}

/**
 * `bytes` as a zstd frame of one raw (stored) block, for up to 255 bytes: single segment, a 1-byte content size, no
 * checksum (RFC 8878 §3.1.1). Concatenated frames are one zstd stream, so a packed answer's own tail follows its packed
 * part without compressing anything.
 */
export function zstdStoredFrame(bytes: Uint8Array): Buffer<ArrayBuffer> {
  if (bytes.byteLength > 255) throw new RangeError('a stored zstd frame here holds at most 255 bytes');
  const blockHeader = 1 | (bytes.byteLength << 3); // Last_Block 1, Block_Type 0 (raw), Block_Size
  return Buffer.concat([ZSTD_MAGIC, Buffer.from([0x20, bytes.byteLength, blockHeader & 0xff, (blockHeader >> 8) & 0xff, blockHeader >> 16]), bytes]);
}

const ZSTD_MAGIC = Buffer.from([0x28, 0xb5, 0x2f, 0xfd]);
