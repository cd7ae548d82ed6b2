import { Global, Inject, Module, type OnApplicationShutdown } from '@nestjs/common';
import { AppConfig } from '../../../common/config/app-config';
import { PostgresCreateRateLimits } from './postgres-rate-limit-store';
import { TokenBucketLimiter, type RateLimitPolicy } from '../../../common/rate-limits/token-bucket';
import { CreateRateLimits, MemoryCreateRateLimits } from './rate-limit';

/**
 * The create limits: in PostgreSQL when DATABASE_URL is set, so all API instances share one limit
 * per key and per organisation; else in this process's memory. Global because @RateLimited()
 * routes live in many feature modules and must all spend from the same buckets.
 */
@Global()
@Module({
  providers: [
    {
      provide: CreateRateLimits,
      inject: [AppConfig],
      useFactory: async (config: AppConfig): Promise<CreateRateLimits> => {
        const { values } = config;
        const perKey: RateLimitPolicy = { name: 'creates', perMinute: values.RATE_LIMIT_CREATES_PER_MINUTE, burst: values.RATE_LIMIT_CREATES_BURST };
        const perOrganisation: RateLimitPolicy = {
          name: 'organisation-creates',
          perMinute: values.RATE_LIMIT_ORGANISATION_CREATES_PER_MINUTE,
          burst: values.RATE_LIMIT_ORGANISATION_CREATES_BURST,
        };
        if (values.DATABASE_URL) return PostgresCreateRateLimits.open(values.DATABASE_URL, perKey, perOrganisation);
        return new MemoryCreateRateLimits(new TokenBucketLimiter(perKey), new TokenBucketLimiter(perOrganisation));
      },
    },
  ],
  exports: [CreateRateLimits],
})
export class RateLimitModule implements OnApplicationShutdown {
  constructor(@Inject(CreateRateLimits) private readonly limits: CreateRateLimits) {}

  async onApplicationShutdown(): Promise<void> {
    await this.limits.close();
  }
}
