import { Module } from '@nestjs/common';
import { RetentionRepository } from './retention.repository.js';
import { RetentionService } from './retention.service.js';

/** Background deletion of conversations older than RETENTION_DAYS (idle when it is unset). */
@Module({
  providers: [RetentionRepository, RetentionService],
  exports: [RetentionService],
})
export class RetentionModule {}
