import { Controller, Query } from '@nestjs/common';
import { ApiRoute } from '../platform/http/api-route';
import { CurrentCaller } from '../platform/http/current-caller.decorator';
import type { Caller } from '../platform/keys/key-authenticator';
import type { UsageReport } from '../../contract/wire/usage';
import { USAGE_ROUTES } from './usage.routes';
import { UsageService } from './usage.service';

@Controller()
export class UsageController {
  constructor(private readonly usage: UsageService) {}

  @ApiRoute(USAGE_ROUTES.totals)
  totals(@CurrentCaller() caller: Caller, @Query() query: unknown): Promise<UsageReport> {
    return this.usage.report(caller, query);
  }
}
