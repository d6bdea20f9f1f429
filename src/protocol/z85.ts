// Z85 (ZeroMQ RFC 32), the text form of CURVE keys: 4 bytes ↔ 5 characters. zeromq.js prints keys
// in Z85 but hands a ZAP handler the raw 32 bytes, and gives no decoder; these two bridge them.
const ALPHABET = '0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ.-:+=^!/*?&<>()[]{}@%$#';
const DECODE = new Map([...ALPHABET].map((c, i) => [c, i]));

export function z85Encode(bytes: Uint8Array): string {
  if (bytes.length % 4 !== 0) throw new Error(`z85: ${bytes.length} bytes is not a multiple of 4`);
  let out = '';
  for (let i = 0; i < bytes.length; i += 4) {
    let value = ((bytes[i]! << 24) | (bytes[i + 1]! << 16) | (bytes[i + 2]! << 8) | bytes[i + 3]!) >>> 0;
    let chunk = '';
    for (let k = 0; k < 5; k++) {
      chunk = ALPHABET[value % 85]! + chunk;
      value = Math.floor(value / 85);
    }
    out += chunk;
  }
  return out;
}

export function z85Decode(text: string): Buffer {
  if (text.length % 5 !== 0) throw new Error(`z85: ${text.length} characters is not a multiple of 5`);
  const out = Buffer.alloc((text.length / 5) * 4);
  for (let i = 0, o = 0; i < text.length; i += 5, o += 4) {
    let value = 0;
    for (let k = 0; k < 5; k++) {
      const digit = DECODE.get(text[i + k]!);
      if (digit === undefined) throw new Error(`z85: '${text[i + k]}' is not a Z85 character`);
      value = value * 85 + digit;
    }
    if (value > 0xffffffff) throw new Error('z85: a group overflows 32 bits');
    out.writeUInt32BE(value, o);
  }
  return out;
}
