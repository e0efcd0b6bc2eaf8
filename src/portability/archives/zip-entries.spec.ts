import { strToU8, Zip, ZipDeflate, zipSync } from 'fflate';
import { UnzippedTooLargeError, ZipInvalidError } from './archive.errors.js';
import { linearChatGptConversation } from './archive-builders.js';
import { MAX_JSON_ENTRIES_TRIED, MAX_UNZIPPED_RATIO, startsLikeZip, ZipEntryReader } from './zip-entries.js';

async function readAll(entry: { data: AsyncGenerator<Buffer> }): Promise<number> {
  let read = 0;
  for await (const chunk of entry.data) read += chunk.length;
  return read;
}

async function* chunks(bytes: Uint8Array, size: number): AsyncGenerator<Buffer> {
  for (let at = 0; at < bytes.length; at += size) yield Buffer.from(bytes.subarray(at, at + size));
}

describe('ZipEntryReader', () => {
  it('hands out the candidate .json entries in file order, passing over the others', async () => {
    const zip = zipSync({
      'a.png': new Uint8Array(5000),
      'dir/user.json': strToU8('{}'),
      'dir/one.json': strToU8('[1]'),
      'two.json': strToU8('[2]'),
      'a/b/deep.json': strToU8('[3]'),
    });
    expect(startsLikeZip(Buffer.from(zip))).toBe(true);
    const reader = new ZipEntryReader(chunks(zip, 7), 1024);
    const seen: Array<[string, string]> = [];
    for (let entry = await reader.next(); entry; entry = await reader.next()) {
      let text = '';
      for await (const chunk of entry.data) text += chunk.toString();
      seen.push([entry.name, text]);
    }
    expect(seen).toEqual([
      ['dir/one.json', '[1]'],
      ['two.json', '[2]'],
    ]);
  });

  it('decompresses only as fast as the entry is read, and stops past the bound', async () => {
    const zip = zipSync({ 'conversations.json': new Uint8Array(8 * 1024 * 1024).fill(0x20) }, { level: 9 });
    const pulled: number[] = [];
    async function* counted(): AsyncGenerator<Buffer> {
      for await (const chunk of chunks(zip, 1024)) {
        pulled.push(chunk.length);
        yield chunk;
      }
    }
    const reader = new ZipEntryReader(counted(), 4 * 1024 * 1024);
    const entry = (await reader.next())!;
    const first = await entry.data.next();
    expect(first.done).toBe(false);
    // One read of the upload was enough for the first bytes: the entry is not decompressed ahead.
    expect(pulled.length).toBeLessThanOrEqual(2);
    let read = (first.value as Buffer).length;
    await expect(
      (async () => {
        for await (const chunk of entry.data) read += chunk.length;
      })(),
    ).rejects.toBeInstanceOf(UnzippedTooLargeError);
    expect(read).toBeLessThanOrEqual(4 * 1024 * 1024);
  });

  it('refuses an entry that decompresses to far more than its compressed size, from its first slices, whatever the bound [slow]', async () => {
    const zip = zipSync({ 'conversations.json': new Uint8Array(64 * 1024 * 1024).fill(0x20) }, { level: 9 });
    const reader = new ZipEntryReader(chunks(zip, 64 * 1024), 1024 * 1024 * 1024);
    let read = 0;
    // Refused as the entry is announced, or at its first bytes.
    const reading = (async () => {
      for await (const chunk of (await reader.next())!.data) read += chunk.length;
    })();
    await expect(reading).rejects.toThrow(UnzippedTooLargeError);
    await expect(reading).rejects.toThrow(`more than ${MAX_UNZIPPED_RATIO} times its compressed size`);
    expect(read).toBeLessThan(2 * 1024 * 1024);
  });

  it('reads an archive as JSON compresses (well under the ratio), to its end [slow]', async () => {
    const text = JSON.stringify(
      Array.from({ length: 300 }, (_, i) => linearChatGptConversation(`c${i}`, 20)),
      null,
      2,
    );
    const zip = zipSync({ 'conversations.json': strToU8(text) }, { level: 9 });
    expect(text.length / zip.length).toBeLessThan(MAX_UNZIPPED_RATIO);
    const reader = new ZipEntryReader(chunks(zip, 16 * 1024), 1024 * 1024 * 1024);
    expect(await readAll((await reader.next())!)).toBe(Buffer.byteLength(text));
  });

  it('checks each entry read against its CRC-32, in its local header or in the data descriptor after it, whatever the slices', async () => {
    const text = JSON.stringify(Array.from({ length: 20 }, (_, i) => linearChatGptConversation(`c${i}`, 5)));
    const streamed = await new Promise<Buffer>((resolve, reject) => {
      const parts: Uint8Array[] = [];
      const zip = new Zip((error, data, final) =>
        error ? reject(error) : (parts.push(data), final && resolve(Buffer.concat(parts))),
      );
      for (const name of ['a.json', 'b.json']) {
        const entry = new ZipDeflate(name, { level: 6 });
        zip.add(entry);
        entry.push(strToU8(text), true);
      }
      zip.end();
    });
    const damage = (zip: Uint8Array, at: (bytes: Buffer) => number) => {
      const bytes = Buffer.from(zip);
      const offset = at(bytes);
      bytes.writeUInt32LE((bytes.readUInt32LE(offset) ^ 1) >>> 0, offset);
      return bytes;
    };
    const inHeader = zipSync({ 'a.json': strToU8(text), 'b.json': strToU8(text) });
    const readBoth = async (zip: Uint8Array, size: number) => {
      const reader = new ZipEntryReader(chunks(zip, size), 1024 * 1024 * 1024);
      const sizes: number[] = [];
      for (let entry = await reader.next(); entry; entry = await reader.next()) sizes.push(await readAll(entry));
      return sizes;
    };
    for (const size of [7, 100, 64 * 1024]) {
      expect(await readBoth(inHeader, size)).toEqual([Buffer.byteLength(text), Buffer.byteLength(text)]);
      expect(await readBoth(streamed, size)).toEqual([Buffer.byteLength(text), Buffer.byteLength(text)]);
      // The second entry damaged: its local header's CRC-32, or its descriptor's.
      await expect(
        readBoth(
          damage(inHeader, (b) => b.lastIndexOf(Buffer.from('PK\u0003\u0004', 'latin1')) + 14),
          size,
        ),
      ).rejects.toThrow(/"b\.json": its CRC-32/);
      await expect(
        readBoth(
          damage(streamed, (b) => b.indexOf(Buffer.from('PK\u0007\u0008', 'latin1'), b.indexOf('b.json')) + 4),
          size,
        ),
      ).rejects.toThrow(/"b\.json": its CRC-32/);
    }
  });

  it(`gives up past ${MAX_JSON_ENTRIES_TRIED} .json entries`, async () => {
    const files = Object.fromEntries(
      Array.from({ length: MAX_JSON_ENTRIES_TRIED + 1 }, (_, i) => [`f${i}.json`, strToU8('{}')]),
    );
    const reader = new ZipEntryReader(chunks(zipSync(files), 4096), 1024);
    let tried = 0;
    await expect(
      (async () => {
        for (let entry = await reader.next(); entry; entry = await reader.next()) {
          tried++;
          await readAll(entry);
        }
      })(),
    ).rejects.toThrow(ZipInvalidError);
    expect(tried).toBeLessThanOrEqual(MAX_JSON_ENTRIES_TRIED);
    expect(reader.jsonNames).toHaveLength(10);
  });
});
