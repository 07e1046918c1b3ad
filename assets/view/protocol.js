// The binary pose frame of docs/view.md ("Frames"), decoded; the layout is flinch::view_protocol::frame's.
export const FLAG_PAUSED = 1;
export const FLAG_RECORDING = 2;

export function decodeFrame(buffer) {
  const v = new DataView(buffer);
  const magic = String.fromCharCode(v.getUint8(0), v.getUint8(1), v.getUint8(2), v.getUint8(3));
  if (magic !== 'FLV2') throw new Error(`not a flinch view frame of protocol 2 (${magic})`);
  const header = {
    sceneVersion: v.getUint32(4, true),
    time: v.getFloat64(8, true),
    clickHits: v.getUint32(16, true),
    flags: v.getUint32(20, true),
  };
  const nChars = v.getUint16(24, true);
  const nBalls = v.getUint16(26, true);
  let at = 32;
  // Bodies per character, then bones per character (0: drawn without a skin), each list padded to 4 bytes.
  const counts = [[], []];
  for (const list of counts) {
    for (let i = 0; i < nChars; i++) { list.push(v.getUint16(at, true)); at += 2; }
    if (nChars % 2 === 1) at += 2;
  }
  const floats = new Float32Array(buffer, at, (buffer.byteLength - at) / 4);
  let f = 0;
  const characters = counts[0].map((n, i) => {
    const m = counts[1][i];
    const sim = floats.subarray(f, f + 7 * n); f += 7 * n;
    const ghost = floats.subarray(f, f + 7 * n); f += 7 * n;
    const bones = floats.subarray(f, f + 7 * m); f += 7 * m;
    return { sim, ghost, bones };
  });
  const balls = [];
  for (let i = 0; i < nBalls; i++) { balls.push(floats.subarray(f, f + 4)); f += 4; }
  return { header, characters, balls };
}
