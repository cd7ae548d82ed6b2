import { Inject, Injectable } from '@nestjs/common';
import { UsageStore } from '../../common/storage/usage-store';
import type { Caller } from '../platform/keys/key-authenticator';
import type { UsageReport } from '../../contract/wire/usage';
import { parseUsageRange } from './usage-request';

@Injectable()
export class UsageService {
  constructor(@Inject(UsageStore) private readonly store: UsageStore) {}

  /** The caller's organisation's totals in its environment over the days asked for. */
  async report(caller: Caller, query: unknown): Promise<UsageReport> {
    const range = parseUsageRange(query);
    const totals = await this.store.totals(caller.environment, caller.organizationId, range.from, range.to);
    return {
      ...range,
      data: totals.map((total) => ({
        date: total.day,
        model: total.model,
        tasks: total.tasks,
        provider_calls: total.providerCalls,
        input_tokens: total.inputTokens,
        output_tokens: total.outputTokens,
        input_characters: total.inputCharacters,
        output_characters: total.outputCharacters,
        cost: total.cost,
      })),
    };
  }
}
