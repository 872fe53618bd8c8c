/**
 * The buffers copied into one buffer of exactly their total size, as slices of it. Small buffers from
 * Node's pool, and zlib's output, are slices of 8–16 KB blocks that a kept slice would hold alive.
 * @param {Buffer[]} buffers
 * @returns {Buffer[]}
 */
export function packed(buffers) {
  const all = Buffer.allocUnsafeSlow(buffers.reduce((sum, buffer) => sum + buffer.length, 0));
  let offset = 0;
  return buffers.map((buffer) => {
    const start = offset;
    offset += buffer.copy(all, offset);
    return all.subarray(start, offset);
  });
}

/**
 * The parts with `separator` between each two.
 * @param {Buffer[]} parts
 * @param {Buffer} separator
 * @returns {Buffer[]}
 */
export function interleaved(parts, separator) {
  return parts.flatMap((part, index) => (index === 0 ? [part] : [separator, part]));
}
