/** The bytes (and UTF-16 units: the same values) a JSON scanner looks for, shared by every scanner of raw JSON text. */
export const JSON_BYTES = {
  QUOTE: 0x22,
  BACKSLASH: 0x5c,
  COMMA: 0x2c,
  COLON: 0x3a,
  OPEN_SQUARE: 0x5b,
  CLOSE_SQUARE: 0x5d,
  OPEN_CURLY: 0x7b,
  CLOSE_CURLY: 0x7d,
  /** UTF-8's byte order mark, which a file may start with. */
  BOM: [0xef, 0xbb, 0xbf],
} as const;

/** JSON's whitespace: space, line feed, carriage return, tab. */
export function isJsonSpace(b: number): boolean {
  return b === 0x20 || b === 0x0a || b === 0x0d || b === 0x09;
}
