import { Controller, Get, Header } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiProperty, ApiTags } from '@nestjs/swagger';
import { ApiKeyAuthenticator } from '../../../actor-auth/api-key-authenticator.js';
import { Public } from '../../../actor-auth/public.decorator.js';

class AuthModeDto {
  @ApiProperty({ description: 'Whether the other routes need an API key (false: single-user mode, every caller is the owner)' })
  keyRequired: boolean;
}

/** How to sign in, asked before signing in: a client asks for a key only when one is needed. */
@ApiTags('account')
@Controller('api/auth')
export class AuthController {
  constructor(private readonly authenticator: ApiKeyAuthenticator) {}

  @Get()
  @Public()
  // Single-user mode ends as soon as a key is made: never kept by a cache.
  @Header('Cache-Control', 'no-store')
  @ApiOperation({
    operationId: 'authMode',
    summary: 'Whether the API needs a key (no authentication)',
    description: 'Tells the same as a 401 from any other route, without trying one: false in single-user mode (no key anywhere, a loopback address).',
    security: [],
  })
  @ApiOkResponse({ type: AuthModeDto })
  async mode(): Promise<AuthModeDto> {
    return { keyRequired: !(await this.authenticator.isSingleUser()) };
  }
}
