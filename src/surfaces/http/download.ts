import { StreamableFile } from '@nestjs/common';
import type { Response } from 'express';

/**
 * A file name safe on every system and in a header: the words of `name` in lower-case ASCII
 * (accents dropped, anything else a dash), at most 50 characters, `fallback` when nothing is
 * left, then the date and the extension. E.g. `lisbon-trip-2026-11-30.json`.
 */
export function safeFilename(name: string, fallback: string, date: Date, extension: string): string {
  const slug = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+/, '')
    .slice(0, 50)
    .replace(/-+$/, '');
  return `${slug || fallback}-${date.toISOString().slice(0, 10)}.${extension}`;
}

/**
 * Answers `text` as a download: `Content-Disposition: attachment` with the file name, the
 * content type, and no caching or sniffing (the file holds private conversations).
 */
export function download(res: Response, text: string, contentType: string, filename: string): StreamableFile {
  res.setHeader('Cache-Control', 'no-store');
  res.setHeader('X-Content-Type-Options', 'nosniff');
  const body = Buffer.from(text, 'utf8');
  return new StreamableFile(body, {
    type: contentType,
    disposition: `attachment; filename="${filename}"`,
    length: body.length,
  });
}
