import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsISO8601, IsOptional, IsUUID } from 'class-validator';
import { MESSAGE_ROLES, type MessageRole } from '../../../conversations/message.entity.js';
import { shareRecord, type SharedConversation, type ShareInfo } from '../../../sharing/sharing.service.js';

export class CreateShareDto {
  @ApiPropertyOptional({
    format: 'uuid',
    description: 'The last message shared: the branch up to it (default: the whole active path of the main thread).',
  })
  @IsOptional()
  @IsUUID()
  messageId?: string;

  @ApiPropertyOptional({
    format: 'date-time',
    description: 'When the link stops working (in the future; default: never, until revoked).',
  })
  @IsOptional()
  @IsISO8601({ strict: true })
  expiresAt?: string;
}

export class CreatedShareDto {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({
    example: 'https://chat.example.com/s/3q2-7wEXAMPLEtokenEXAMPLEtokenEXAMPLEtok',
    description: 'The link to give out: under PUBLIC_BASE_URL when set, else relative (/s/<token>).',
  })
  url: string;
  @ApiProperty({ description: 'The secret part of the link; answered only now (only its hash is kept).' })
  token: string;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) expiresAt: string | null;
}

class ShareDto {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ format: 'uuid' }) conversationId: string;
  @ApiProperty({ description: 'The title when shared.' }) title: string;
  @ApiProperty({ format: 'uuid', description: 'The last message of the snapshot.' }) upToMessageId: string;
  @ApiProperty({ type: 'integer' }) messageCount: number;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({
    type: String,
    format: 'date-time',
    nullable: true,
    description: 'Past it the link answers 404 (the share stays listed until revoked).',
  })
  expiresAt: string | null;
}

export class ShareListDto {
  @ApiProperty({ type: [ShareDto], description: 'Newest first.' }) items: ShareDto[];
}

class SharedMessageDto {
  @ApiProperty({ enum: MESSAGE_ROLES }) role: MessageRole;
  @ApiProperty() content: string;
  @ApiProperty({ type: String, nullable: true, description: 'The model that wrote a reply.' }) model: string | null;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
}

export class SharedConversationDto {
  @ApiProperty() title: string;
  @ApiProperty({
    type: [SharedMessageDto],
    description: 'The snapshot, oldest first: what the conversation held when shared.',
  })
  messages: SharedMessageDto[];
}

export function toShareDto(s: ShareInfo): ShareDto {
  return shareRecord(s);
}

/** Only what a reader may see: no actor, no ids, no state, no status, no agent. */
export function toSharedConversationDto(s: SharedConversation): SharedConversationDto {
  return {
    title: s.title,
    messages: s.messages.map((m) => ({ role: m.role, content: m.content, model: m.model, createdAt: m.createdAt })),
  };
}
