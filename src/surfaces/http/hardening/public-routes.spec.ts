import { All, Controller, Get, Module, Post } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { Public } from '../../../actor-auth/public.decorator.js';
import { publicRoutes } from './public-routes.js';

@Controller('open')
class OpenController {
  @Get() @Public() list() {}
  @Post(':id/hook') @Public() hook() {}
  @Post('closed') closed() {}
}

@Public()
@Controller(['whole', 'alias'])
class WholeController {
  @All('any') any() {}
}

@Controller('api/things')
class ThingsController {
  @Post() create() {}
  @Get(':id') read() {}
}

@Module({ controllers: [OpenController, WholeController, ThingsController] })
class RoutesModule {}

describe('publicRoutes: the @Public() routes, known before routing', () => {
  it('matches the methods and paths of @Public() handlers and controllers, and nothing else', async () => {
    const app = await NestFactory.create(RoutesModule, { logger: false });
    try {
      const isPublic = publicRoutes(app);
      expect(isPublic('GET', '/open')).toBe(true);
      expect(isPublic('HEAD', '/open/')).toBe(true);
      expect(isPublic('POST', '/open')).toBe(false);
      expect(isPublic('POST', '/OPEN/42/hook')).toBe(true);
      expect(isPublic('POST', '/open/42/43/hook')).toBe(false);
      expect(isPublic('POST', '/open/closed')).toBe(false);
      expect(isPublic('PUT', '/whole/any')).toBe(true);
      expect(isPublic('DELETE', '/alias/any')).toBe(true);
      expect(isPublic('POST', '/api/things')).toBe(false);
      expect(isPublic('GET', '/api/things/1')).toBe(false);
      expect(isPublic('POST', '/unknown')).toBe(false);
    } finally {
      await app.close();
    }
  });
});
