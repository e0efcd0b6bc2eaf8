import { SetMetadata } from '@nestjs/common';

export const IS_PUBLIC = 'actor-auth:public';

/** Opts a route out of authentication. Deny is the default; only health and docs use this. */
export const Public = () => SetMetadata(IS_PUBLIC, true);
