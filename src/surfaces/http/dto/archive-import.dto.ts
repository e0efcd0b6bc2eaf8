import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsBoolean, IsOptional } from 'class-validator';
import { ErrorDto } from '../../errors/error.dto.js';

const ARCHIVE_FORMATS = ['chatgpt', 'open-webui', 'chat-memory', 'empty'] as const;

const queryBoolean = Transform(({ value }: { value: unknown }) =>
  value === 'true' ? true : value === 'false' ? false : value,
);

export class ArchiveImportQueryDto {
  @ApiPropertyOptional({
    description: 'true: read and check the whole file and answer the same report, storing nothing (ids are null).',
    type: Boolean,
  })
  @IsOptional()
  @queryBoolean
  @IsBoolean()
  dryRun?: boolean;

  @ApiPropertyOptional({
    description:
      'true: also take the long-term memories of a chat-memory account export (global memories, read into every later turn). Without it they are only listed in the report.',
    type: Boolean,
  })
  @IsOptional()
  @queryBoolean
  @IsBoolean()
  memories?: boolean;

  @ApiPropertyOptional({
    description:
      'true (with memories=true): a memory pinned in the file stays pinned. Without it every memory taken is unpinned.',
    type: Boolean,
  })
  @IsOptional()
  @queryBoolean
  @IsBoolean()
  pinMemories?: boolean;

  @ApiPropertyOptional({
    description:
      "true: also create the agents of a chat-memory account export (their system prompts and tools) and link the file's conversations to them. Without it they are only listed.",
    type: Boolean,
  })
  @IsOptional()
  @queryBoolean
  @IsBoolean()
  agents?: boolean;
}

class ImportedArchiveConversationDto {
  @ApiProperty({
    type: String,
    format: 'uuid',
    nullable: true,
    description: 'The new conversation; null in a dry run.',
  })
  id: string | null;
  @ApiProperty({ description: "The conversation's id in the archive." }) sourceId: string;
  @ApiProperty() title: string;
  @ApiProperty({ description: 'Messages stored, every branch included.' }) messages: number;
  @ApiProperty({ description: 'Messages with more than one child (where versions diverge).' }) branches: number;
  @ApiPropertyOptional({
    format: 'uuid',
    description:
      'Present when the file held new messages of a conversation imported before: they were added to this conversation (and `messages` counts only them).',
  })
  appendedTo?: string;
}

class SkippedArchiveConversationDto {
  @ApiProperty({ description: 'Position in the file, from 0.' }) index: number;
  @ApiProperty({ type: String, nullable: true }) sourceId: string | null;
  @ApiProperty({ type: String, nullable: true }) title: string | null;
  @ApiProperty({ example: 'a node whose parent is not in the conversation' }) reason: string;
  @ApiPropertyOptional({
    enum: ['already_imported'],
    description:
      'Present when the account holds this conversation already: imported before from the same file (or a newer export of the same tool), or, for our own format, the conversation itself.',
  })
  code?: 'already_imported';
}

class DroppedPartsDto {
  @ApiProperty({ description: 'Images and image generations (the files are not in the archive).' }) images: number;
  @ApiProperty({ description: 'Attached files, audio without a transcript.' }) files: number;
  @ApiProperty({ description: 'Tool traffic with no text kept (browsing, search, tool calls).' }) toolMessages: number;
  @ApiProperty({ description: 'Reasoning shown apart from a reply (not stored).' }) reasoning: number;
  @ApiProperty({ description: 'Non-empty hidden system or context messages other than the instructions.' })
  hiddenMessages: number;
  @ApiProperty({ description: 'Parts of a type the reader does not know.' }) other: number;
}

class ImportedAgentDto {
  @ApiProperty({ type: String, nullable: true, description: "The agent's id in the file." }) sourceId: string | null;
  @ApiProperty({ description: 'Its name here (the new one when renamed).' }) name: string;
  @ApiProperty({
    type: String,
    format: 'uuid',
    nullable: true,
    description: "Your agent the file's conversations are linked to; null when skipped, or created in a dry run.",
  })
  id: string | null;
  @ApiProperty({
    enum: ['created', 'reused', 'renamed', 'skipped'],
    description:
      'reused: you have an agent of that name with the same settings; renamed: you have another agent of that name, this one got a " (2)" suffix; skipped: not a valid agent.',
  })
  outcome: 'created' | 'reused' | 'renamed' | 'skipped';
  @ApiPropertyOptional({
    description:
      'Why it was skipped (not asked for with agents=true, not valid, MAX_AGENTS_PER_ACTOR reached) or renamed.',
  })
  reason?: string;
  @ApiProperty({
    type: String,
    nullable: true,
    description: 'The start of its system prompt in the file (at most 300 characters).',
  })
  systemPrompt: string | null;
  @ApiProperty({ type: [String], description: 'The tools the file gives it (update_state, remember, forget).' })
  tools: string[];
}

class ListedMemoryDto {
  @ApiProperty({ description: 'Its text, cut to 300 characters.' }) text: string;
  @ApiProperty({ description: 'Pinned in the file (kept only with pinMemories=true).' }) pinned: boolean;
}

class ImportedMemoriesDto {
  @ApiProperty({ description: 'Memories taken (in a dry run: that would be taken).' }) imported: number;
  @ApiProperty({
    description:
      'Memories not taken: all of them when not asked for (memories=true) or when one is not valid (the import of memories is all or nothing).',
  })
  skipped: number;
  @ApiProperty({ type: String, nullable: true, description: 'Why they were not taken; null otherwise.' }) reason:
    string | null;
  @ApiProperty({ type: [ListedMemoryDto], description: 'The first 100 memories of the file, whether taken or not.' })
  items: ListedMemoryDto[];
}

class ImportRequestedDto {
  @ApiProperty({ description: 'memories=true: the memories are taken.' }) memories: boolean;
  @ApiProperty({ description: 'agents=true: the agents are created.' }) agents: boolean;
  @ApiProperty({ description: 'pinMemories=true: pins in the file are kept.' }) pinMemories: boolean;
}

export class ArchiveImportReportDto {
  @ApiProperty({ enum: ARCHIVE_FORMATS, description: 'What the file was read as.' })
  format: (typeof ARCHIVE_FORMATS)[number];
  @ApiProperty() dryRun: boolean;
  @ApiProperty({
    type: ImportRequestedDto,
    description: 'What the request asked to take besides conversations (all false unless asked for).',
  })
  requested: ImportRequestedDto;
  @ApiProperty({
    type: String,
    nullable: true,
    description: 'The ZIP entry read (e.g. "conversations.json"); null when the upload was JSON.',
  })
  zipEntry: string | null;
  @ApiProperty({ description: 'Conversations imported (in a dry run: that would be).' }) importedCount: number;
  @ApiProperty({
    type: [ImportedArchiveConversationDto],
    description: 'The first 10,000 of them (titles and source ids cut to 200 characters).',
  })
  imported: ImportedArchiveConversationDto[];
  @ApiProperty({ description: 'Conversations skipped.' }) skippedCount: number;
  @ApiProperty({
    type: [SkippedArchiveConversationDto],
    description:
      'The first 100 of them with their reasons (titles and source ids cut to 200 characters, reasons to 1,000).',
  })
  skipped: SkippedArchiveConversationDto[];
  @ApiProperty({ type: DroppedPartsDto, description: 'Totals over the imported conversations of what is not text.' })
  dropped: DroppedPartsDto;
  @ApiProperty({
    type: [ImportedAgentDto],
    description:
      'The agents of a chat-memory account export, listed whether imported or not; with agents=true imported before its conversations, which are linked to them.',
  })
  agents: ImportedAgentDto[];
  @ApiProperty({
    description:
      'Agents of a chat-memory account export that were not imported (skipped): their conversations come without an agent.',
  })
  agentsNotImported: number;
  @ApiProperty({
    type: ImportedMemoriesDto,
    description:
      'The long-term memories of a chat-memory account export, listed, and with memories=true taken after its conversations (0 for other formats).',
  })
  memories: ImportedMemoriesDto;
}

class StoredBeforeErrorDto {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty() sourceId: string;
  @ApiProperty() title: string;
}

/** An archive refused as a whole (400, 413; `code` archive_format_unknown, archive_malformed, archive_too_large, archive_zip_invalid, archive_zip_unsupported, archive_zip_without_conversations, archive_unzipped_too_large or archive_too_many_conversations): which formats were expected, or where it went wrong. */
export class ArchiveErrorDto extends ErrorDto {
  @ApiPropertyOptional({
    type: [StoredBeforeErrorDto],
    description: 'Conversations stored before the file went wrong part way (each was complete).',
  })
  imported?: StoredBeforeErrorDto[];
}
