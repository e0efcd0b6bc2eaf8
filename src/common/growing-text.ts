/** Pieces kept apart before they are joined into the text: bounds what a long reply costs beyond its characters. */
const PIECES_PER_JOIN = 64;

/**
 * A text built from many small pieces (a reply's deltas), held as one flat string and a short
 * list of the latest pieces. `a += piece` for each delta keeps a V8 cons string of one node
 * per piece (32 bytes, plus the piece itself, on a 64-bit build) until something flattens it:
 * about three times the text, for every copy of every live reply.
 */
export class GrowingText {
  private flat = '';
  private pieces: string[] = [];
  private piecesLength = 0;

  get length(): number {
    return this.flat.length + this.piecesLength;
  }

  append(piece: string): void {
    if (!piece) return;
    this.pieces.push(piece);
    this.piecesLength += piece.length;
    if (this.pieces.length >= PIECES_PER_JOIN) this.join();
  }

  toString(): string {
    if (this.pieces.length) this.join();
    return this.flat;
  }

  private join(): void {
    // Array.join makes a flat string; `flat + joined` would be one more cons node.
    this.pieces.unshift(this.flat);
    this.flat = this.pieces.join('');
    this.pieces = [];
    this.piecesLength = 0;
  }
}
