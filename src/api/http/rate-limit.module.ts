import { Global, Inject, Module, type OnApplicationShutdown } from '@nestjs/common';
import { AppConfig } from '../../common/config/app-config';
import { PostgresTokenBucketLimiter } from './postgres-rate-limit-store';
import { CreateRateLimiter, CreateRateLimits, TokenBucketLimiter, type RateLimitPolicy } from './rate-limit';

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
        const open = async (policy: RateLimitPolicy): Promise<CreateRateLimiter> =>
          values.DATABASE_URL ? PostgresTokenBucketLimiter.open(values.DATABASE_URL, policy) : new TokenBucketLimiter(policy);
        const perKey = await open({ name: 'creates', perMinute: values.RATE_LIMIT_CREATES_PER_MINUTE, burst: values.RATE_LIMIT_CREATES_BURST });
        const perOrganisation = await open({
          name: 'organisation-creates',
          perMinute: values.RATE_LIMIT_ORGANISATION_CREATES_PER_MINUTE,
          burst: values.RATE_LIMIT_ORGANISATION_CREATES_BURST,
        }).catch(async (error: unknown) => {
          await perKey.close();
          throw error;
        });
        return new CreateRateLimits(perKey, perOrganisation);
      },
    },
  ],
  exports: [CreateRateLimits],
})
export class RateLimitModule implements OnApplicationShutdown {
  constructor(@Inject(CreateRateLimits) private readonly limits: CreateRateLimits) {}

  async onApplicationShutdown(): Promise<void> {
    await Promise.all([this.limits.perKey.close(), this.limits.perOrganisation.close()]);
  }
}
