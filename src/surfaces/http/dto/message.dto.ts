import { ApiProperty } from '@nestjs/swagger';
import { IsBoolean } from 'class-validator';
import {
  ExportedMessageError as MessageErrorDto,
  ExportedMessageVersion as MessageVersionDto,
  ExportedToolCall as ToolCallDto,
} from '../../../portability/export-document.js';
import {
  MESSAGE_ROLES,
  MESSAGE_STATUSES,
  replyErrorOf,
  versionOf,
  type Message,
  type MessageVersion,
} from '../../../conversations/message.entity.js';
import { replyErrorBody } from '../../errors/http-status.js';

/** A message as the API shows it (in a conversation, a page of messages, a branch). */
// A message's earlier answers, error and tool calls are written the same in exports: described once there.
export { MessageErrorDto, MessageVersionDto, ToolCallDto };

export class MessageDto {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ example: 'main' }) thread: string;
  @ApiProperty({
    description:
      'The order messages were stored in, 1-based and unique in the conversation; along any branch it only grows (the active path may skip numbers that belong to other branches).',
  })
  seq: number;
  @ApiProperty({
    type: String,
    format: 'uuid',
    nullable: true,
    description: 'The message this one follows; null for the first of its thread (or an edit of it).',
  })
  parentId: string | null;
  @ApiProperty({ description: "On its thread's active path: the branch turns continue and the model is sent." })
  onPath: boolean;
  @ApiProperty({
    description: 'Its position among its siblings (the versions of this point of the dialogue), 0-based, oldest first.',
  })
  siblingIndex: number;
  @ApiProperty({ description: 'How many siblings it has, itself included (1: no other version).' })
  siblingCount: number;
  @ApiProperty({
    type: [String],
    description: 'Its siblings, itself included, oldest first: select one to switch branches.',
  })
  siblingIds: string[];
  @ApiProperty({ enum: MESSAGE_ROLES }) role: string;
  @ApiProperty() content: string;
  @ApiProperty({
    enum: MESSAGE_STATUSES,
    description:
      '"streaming": being generated (content grows); "complete"; "failed": the model broke off (partial text kept, see error); ' +
      '"cancelled": stopped on request (partial text kept). Only complete messages are replayed to the model.',
  })
  status: string;
  @ApiProperty({ type: String, nullable: true }) model: string | null;
  @ApiProperty({ type: Number, nullable: true }) promptTokens: number | null;
  @ApiProperty({ type: Number, nullable: true }) completionTokens: number | null;
  @ApiProperty({ type: MessageErrorDto, nullable: true, description: 'Why a failed reply failed.' })
  error: MessageErrorDto | null;
  @ApiProperty({
    type: [MessageVersionDto],
    description:
      'A reply: the other answers to its question (its sibling replies), oldest first; never replayed. Kept for clients written before branches: siblingIds is the tree.',
  })
  versions: MessageVersionDto[];
  @ApiProperty({
    type: [ToolCallDto],
    description: 'Tools the model called while writing this reply (never replayed).',
  })
  toolCalls: ToolCallDto[];
  @ApiProperty({
    type: String,
    nullable: true,
    description:
      'A reply of a reasoning model: what it thought before answering (at most MAX_REPLY_CHARS; never replayed); null: none.',
  })
  reasoning: string | null;
  @ApiProperty({
    type: Number,
    nullable: true,
    description: 'How long the model thought, in milliseconds (streamed replies; null otherwise).',
  })
  reasoningMs: number | null;
  @ApiProperty({
    type: [String],
    description: 'A reply: the long-term memories its turn was given (ids; a memory may be deleted since).',
  })
  memoryIds: string[];
  @ApiProperty({
    type: [String],
    description:
      "A reply: the messages of the actor's past that recall gave its turn, best match first (ids; a message may be deleted since).",
  })
  recalledMessageIds: string[];
  @ApiProperty({
    description: 'Pinned: always sent to the model while on the active path (PATCH .../messages/{messageId}).',
  })
  pinned: boolean;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
}

export class PinMessageDto {
  @ApiProperty({ description: 'true: always sent to the model while on the active path; false: as any other message.' })
  @IsBoolean()
  pinned: boolean;
}

export class MessagesPageDto {
  @ApiProperty({ type: [MessageDto], description: 'Oldest first within the page.' }) items: MessageDto[];
  @ApiProperty({
    type: Number,
    nullable: true,
    description: 'Pass as before for the page of older messages; null on the first message.',
  })
  nextBefore: number | null;
}

/** A page read with one message more than `limit`: that extra one tells whether an older page exists. */
export function toMessagesPage(page: readonly Message[], limit: number): MessagesPageDto {
  const items = page.slice(-limit);
  return { items: items.map(toMessageDto), nextBefore: page.length > limit ? (items[0]?.seq ?? null) : null };
}

export function toMessageDto(m: Message): MessageDto {
  const siblingIds = m.siblingIds ?? [m.id];
  return {
    id: m.id,
    thread: m.thread,
    seq: m.seq,
    parentId: m.parentId,
    onPath: m.onPath,
    siblingIndex: Math.max(0, siblingIds.indexOf(m.id)),
    siblingCount: siblingIds.length,
    siblingIds,
    role: m.role,
    ...versionOf(m),
    error: replyErrorBody(replyErrorOf(m)),
    versions: (m.otherAnswers ?? m.versions ?? []).map(versionDto),
    toolCalls: m.toolCalls ?? [],
    reasoning: m.reasoning ?? null,
    reasoningMs: m.reasoningMs ?? null,
    memoryIds: m.memoryIds ?? [],
    recalledMessageIds: m.recalledMessageIds ?? [],
    pinned: m.pinned ?? false,
  };
}

/** An answer as the API shows it: its error's code becomes the status a client would have got. */
function versionDto(v: MessageVersion): MessageVersionDto {
  const { error, ...rest } = v;
  // An earlier answer stored without the field is shown without it.
  return error === undefined ? rest : { ...rest, error: replyErrorBody(error) };
}
