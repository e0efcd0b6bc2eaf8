/** Errors about an archive as a whole. A bad conversation inside a good archive is skipped, not thrown. */
export abstract class ArchiveError extends Error {
  abstract readonly code: string;
}

/** The upload is none of the formats we read; the message names what was expected. */
export class UnknownArchiveFormatError extends ArchiveError {
  readonly code = 'archive_format_unknown';
  constructor(found: string) {
    super(
      `Not an archive this service can import (${found}). Expected a ChatGPT conversations.json ` +
        `(an array of conversations with "mapping"), an Open WebUI export (an array of chats with ` +
        `"chat.history"), or a chat-memory account export (an object with "format": "chat-memory.account")`,
    );
  }
}

/** The file is not well-formed JSON where the reader needed it to be (outside any single conversation). */
export class MalformedArchiveError extends ArchiveError {
  readonly code = 'archive_malformed';
  constructor(detail: string, readonly offset: number) {
    super(`The archive is not valid JSON: ${detail} (at byte ${offset})`);
  }
}
