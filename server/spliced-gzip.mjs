import { constants, crc32, deflateRawSync } from "node:zlib";
import { interleaved, packed } from "./buffers.mjs";

// A gzip body for a page whose parts are fixed but whose joins change with every response (the page
// cache's CSP nonce). Each part is compressed once into deflate blocks that end on a byte boundary (a sync
// flush, no final block); a response then needs only its join as a stored block between each two parts,
// an empty final block, and the gzip header and trailer. Compressing the whole page for each reader cost
// five times as much CPU as serving it (docs/decisions/012).
//
// Each part is compressed with what comes before it as the deflate dictionary, with the joins as NUL
// bytes: no back-reference can then cover a join (no part holds a NUL), and every other byte of the window
// is what the reader's decompressor will have seen. Parts that hold a NUL are compressed on their own.

/** RFC 1952 header: deflate, no name or time, Unix. */
const HEADER = Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3]);
/** An empty final block with fixed Huffman codes. */
const FINAL_BLOCK = Buffer.from([0x03, 0x00]);
const WINDOW_BYTES = 32 * 1024;

/**
 * @param {Buffer[]} parts the page between its joins
 * @param {number} joinLength the length every join will have, at most 65535 bytes (one stored block)
 * @returns {{ bytes: number, withJoin: (join: Buffer) => Buffer }} the memory the compressed parts
 *   hold, and the gzip member of the parts joined with `join`
 */
export function splicedGzip(parts, joinLength) {
  if (!Number.isInteger(joinLength) || joinLength < 0 || joinLength > 0xffff) throw new RangeError("join length must fit one stored block");
  const compressed = compressParts(parts, joinLength);
  const size = parts.reduce((sum, part) => sum + part.length, 0) + joinLength * (parts.length - 1);

  const withJoin = (join) => {
    if (join.length !== joinLength) throw new RangeError(`join of ${join.length} bytes, expected ${joinLength}`);
    const stored = Buffer.alloc(5 + joinLength); // byte 0: not final, stored; then LEN and NLEN
    stored.writeUInt16LE(joinLength, 1);
    stored.writeUInt16LE(~joinLength & 0xffff, 3);
    join.copy(stored, 5);

    const crc = interleaved(parts, join).reduce(extendCrc, 0);
    const trailer = Buffer.alloc(8);
    trailer.writeUInt32LE(crc >>> 0, 0);
    trailer.writeUInt32LE(size % 2 ** 32, 4);
    return Buffer.concat([HEADER, ...interleaved(compressed, stored), FINAL_BLOCK, trailer]);
  };
  const held = new Set(compressed.map((blocks) => blocks.buffer));
  return { bytes: [...held].reduce((sum, buffer) => sum + buffer.byteLength, 0), withJoin };
}

/**
 * Each part as deflate blocks ending byte-aligned, packed into one buffer (zlib hands back slices of
 * 16 KB buffers).
 */
function compressParts(parts, joinLength) {
  const withDictionary = !parts.some((part) => part.includes(0));
  const hole = Buffer.alloc(joinLength);
  let before = Buffer.alloc(0);
  const blocks = parts.map((part) => {
    const options = { level: constants.Z_BEST_COMPRESSION, finishFlush: constants.Z_SYNC_FLUSH };
    const compressed = deflateRawSync(part, withDictionary && before.length > 0 ? { ...options, dictionary: before } : options);
    before = Buffer.concat([before, part, hole]).subarray(-WINDOW_BYTES);
    return compressed;
  });
  return packed(blocks);
}

/**
 * The CRC-32 of what came before followed by `data`. An empty buffer is skipped: zlib.crc32 answers 0
 * for one whose memory zlib has released (as deflateRawSync does with an empty input).
 */
function extendCrc(crc, data) {
  return data.length > 0 ? crc32(data, crc) : crc;
}
