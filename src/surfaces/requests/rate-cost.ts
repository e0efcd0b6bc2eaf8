import { SetMetadata } from '@nestjs/common';
import type { Request } from 'express';

export const RATE_COST = 'rateCost';

/** How many requests one HTTP request is worth: at least 1, and bounded by the route (its body is parsed and size-limited already). */
export type RateCostOf = (req: Request) => number;

/**
 * Makes RateLimitGuard count a request of this route as `cost(req)` requests against
 * RATE_LIMIT_PER_MINUTE: a route that carries several calls in one request (a JSON-RPC batch)
 * pays for each of them.
 */
export const RateCost = (cost: RateCostOf) => SetMetadata(RATE_COST, cost);
