import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsIn, IsOptional, IsUUID } from 'class-validator';
import { EXPORT_VERSION, EXPORT_VERSIONS, type ExportVersion } from '../../../portability/export-document.js';
import { ErrorDto } from '../../errors/error.dto.js';

const EXPORT_FORMATS = ['json', 'markdown'] as const;

export class ExportVersionQueryDto {
  @ApiPropertyOptional({
    enum: EXPORT_VERSIONS,
    default: EXPORT_VERSION,
    description:
      "The JSON version: 2, the whole tree (every branch, each thread's active leaf); 1, the active paths only, for readers written before the tree.",
  })
  @IsOptional()
  @Type(() => Number)
  @IsIn(EXPORT_VERSIONS, { message: `version must be one of: ${EXPORT_VERSIONS.join(', ')}` })
  version?: ExportVersion;
}

export class ExportQueryDto extends ExportVersionQueryDto {
  @ApiPropertyOptional({
    enum: EXPORT_FORMATS,
    default: 'json',
    description: 'json: the versioned export (importable); markdown: a readable transcript of the active paths.',
  })
  @IsOptional()
  @IsIn(EXPORT_FORMATS)
  format?: (typeof EXPORT_FORMATS)[number];
}

export class ImportQueryDto {
  @ApiPropertyOptional({
    format: 'uuid',
    description: "One of your agents, to bind the imported conversation to (the file's agent is never attached).",
  })
  @IsOptional()
  @IsUUID()
  agentId?: string;
}

export class ForkRequestDto {
  @ApiProperty({
    format: 'uuid',
    description: 'The last message of the fork: messages of every thread up to its seq are copied.',
  })
  @IsUUID()
  fromMessageId: string;
}

// The export document is described once, in src/portability/export-document.ts (validation and OpenAPI).
export {
  AccountExport as AccountExportDto,
  ConversationExport as ConversationExportDto,
  ExportedAgent as ExportedAgentDto,
  ExportedConversation as ExportedConversationDto,
  ExportedMessage as ExportedMessageDto,
  ExportedSummary as ExportedSummaryDto,
  ExportedThread as ExportedThreadDto,
} from '../../../portability/export-document.js';

class ImportProblemDto {
  @ApiProperty({ example: '$.conversation.messages[3].role' }) path: string;
  @ApiProperty({ example: 'must be one of: user, assistant' }) message: string;
}

/** 400 for an import document that is not a valid conversation export. */
export class ImportErrorDto extends ErrorDto {
  @ApiPropertyOptional({
    type: [ImportProblemDto],
    description: 'For a rejected document: the first 20 problems, with their JSON paths.',
  })
  problems?: ImportProblemDto[];
}

export class ErasedDataDto {
  @ApiProperty() conversations: number;
  @ApiProperty() messages: number;
  @ApiProperty() threads: number;
  @ApiProperty() summaries: number;
  @ApiProperty() tags: number;
  @ApiProperty() agents: number;
  @ApiProperty() idempotencyKeys: number;
  @ApiProperty({ description: 'Long-term memories.' }) memories: number;
}
