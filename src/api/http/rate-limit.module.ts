import { Global, Inject, Module, type OnApplicationShutdown } from '@nestjs/common';
import { AppConfig } from '../../common/config/app-config';
import { PostgresTokenBucketLimiter } from './postgres-rate-limit-store';
import { CreateRateLimiter, TokenBucketLimiter, type RateLimitPolicy } from './rate-limit';

/**
 * The create limiter: in PostgreSQL when DATABASE_URL is set, so all API instances share one limit
 * per key; else in this process's memory. Global because @RateLimited() routes live in many
 * feature modules and must all spend from the same buckets.
 */
@Global()
@Module({
  providers: [
    {
      provide: CreateRateLimiter,
      inject: [AppConfig],
      useFactory: async (config: AppConfig): Promise<CreateRateLimiter> => {
        const policy: RateLimitPolicy = {
          name: 'creates',
          perMinute: config.values.RATE_LIMIT_CREATES_PER_MINUTE,
          burst: config.values.RATE_LIMIT_CREATES_BURST,
        };
        const url = config.values.DATABASE_URL;
        return url ? PostgresTokenBucketLimiter.open(url, policy) : new TokenBucketLimiter(policy);
      },
    },
  ],
  exports: [CreateRateLimiter],
})
export class RateLimitModule implements OnApplicationShutdown {
  constructor(@Inject(CreateRateLimiter) private readonly limiter: CreateRateLimiter) {}

  async onApplicationShutdown(): Promise<void> {
    await this.limiter.close();
  }
}
