/**
 * UTF-8 `TextEncoder`/`TextDecoder` for the server's QuickJS (D424): whatwg-url needs
 * them when it loads, so this module comes before it in `engine.ts`.
 */
const g = globalThis as Record<string, unknown>;

class Utf8Encoder {
  readonly encoding = 'utf-8';
  encode(text = ''): Uint8Array {
    const bytes: number[] = [];
    for (const char of text) {
      let c = char.codePointAt(0)!;
      // A lone surrogate is written as U+FFFD, as the standard says.
      if (c >= 0xd800 && c <= 0xdfff) c = 0xfffd;
      if (c < 0x80) bytes.push(c);
      else if (c < 0x800) bytes.push(0xc0 | (c >> 6), 0x80 | (c & 63));
      else if (c < 0x10000) bytes.push(0xe0 | (c >> 12), 0x80 | ((c >> 6) & 63), 0x80 | (c & 63));
      else
        bytes.push(
          0xf0 | (c >> 18),
          0x80 | ((c >> 12) & 63),
          0x80 | ((c >> 6) & 63),
          0x80 | (c & 63),
        );
    }
    return new Uint8Array(bytes);
  }
}

class Utf8Decoder {
  readonly encoding = 'utf-8';
  decode(input?: ArrayBuffer | ArrayBufferView): string {
    if (!input) return '';
    const bytes = ArrayBuffer.isView(input)
      ? new Uint8Array(input.buffer, input.byteOffset, input.byteLength)
      : new Uint8Array(input);
    let out = '';
    for (let i = 0; i < bytes.length;) {
      const b = bytes[i];
      const [extra, min, first] =
        b < 0x80
          ? [0, 0, b]
          : b >= 0xf0
            ? [3, 0x10000, b & 7]
            : b >= 0xe0
              ? [2, 0x800, b & 15]
              : b >= 0xc0
                ? [1, 0x80, b & 31]
                : [-1, 0, 0];
      let c = first;
      let ok = extra >= 0 && i + extra < bytes.length;
      for (let k = 1; ok && k <= extra; k++) {
        const next = bytes[i + k];
        if ((next & 0xc0) !== 0x80) ok = false;
        else c = (c << 6) | (next & 63);
      }
      if (!ok || c < min || c > 0x10ffff || (c >= 0xd800 && c <= 0xdfff)) {
        out += '\ufffd';
        i += 1;
        continue;
      }
      out += String.fromCodePoint(c);
      i += extra + 1;
    }
    return out;
  }
}

if (typeof g.TextEncoder === 'undefined') g.TextEncoder = Utf8Encoder;
if (typeof g.TextDecoder === 'undefined') g.TextDecoder = Utf8Decoder;

export { Utf8Decoder, Utf8Encoder };
