import { Module } from '@nestjs/common';
import { MemoryModule } from '../memory/memory.module.js';
import { AgentsModule } from '../agents/agents.module.js';
import { ConversationsModule } from '../conversations/conversations.module.js';
import { IdempotencyModule } from '../idempotency/idempotency.module.js';
import { SharingModule } from '../sharing/sharing.module.js';
import { AccountErasure } from './account-erasure.js';
import { AccountPartsImport } from './account-parts-import.js';
import { ArchiveImportService } from './archive-import.service.js';
import { ArchiveReimport } from './archive-reimport.js';
import { ConversationForks } from './conversation-forks.js';
import { HeldImports } from './held-imports.js';
import { OwnExportImport } from './own-export-import.js';
import { PortabilityService } from './portability.service.js';
import { OAuthModule } from '../oauth/oauth.module.js';

/** Conversations as files (export, import, fork) and an actor's data as a whole (account export, erasure), archives of other tools. */
@Module({
  imports: [ConversationsModule, AgentsModule, IdempotencyModule, MemoryModule, SharingModule, OAuthModule],
  providers: [
    PortabilityService,
    ConversationForks,
    AccountErasure,
    ArchiveImportService,
    HeldImports,
    ArchiveReimport,
    OwnExportImport,
    AccountPartsImport,
  ],
  exports: [PortabilityService, ArchiveImportService],
})
export class PortabilityModule {}
