import { Controller, Get, Header, Inject } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiProperty, ApiTags } from '@nestjs/swagger';
import { ApiKeyAuthenticator } from '../../../actor-auth/api-key-authenticator.js';
import { Public } from '../../../actor-auth/public.decorator.js';
import { APP_CONFIG, type AppConfig } from '../../../config/app-config.js';

class ClientSettingsDto {
  @ApiProperty({
    description: 'Whether the other routes need an API key (false: single-user mode, every caller is the owner)',
  })
  keyRequired: boolean;

  @ApiProperty({ type: 'integer', description: 'The longest message a turn takes, in characters (MAX_MESSAGE_CHARS)' })
  maxMessageChars: number;
}

/** What a client needs before its first call: whether to ask for a key, and the limits of what it sends. */
@ApiTags('account')
@Controller('api/settings')
export class SettingsController {
  constructor(
    private readonly authenticator: ApiKeyAuthenticator,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Get()
  @Public()
  // Single-user mode ends as soon as a key is made: never kept by a cache.
  @Header('Cache-Control', 'no-store')
  @ApiOperation({
    operationId: 'getSettings',
    summary: 'Whether the API needs a key, and the longest message it takes (no authentication)',
    description:
      'keyRequired tells the same as a 401 from any other route, without trying one: false in single-user mode (no key anywhere, a loopback address).',
    security: [],
  })
  @ApiOkResponse({ type: ClientSettingsDto })
  async settings(): Promise<ClientSettingsDto> {
    return { keyRequired: !(await this.authenticator.isSingleUser()), maxMessageChars: this.config.maxMessageChars };
  }
}
