import { Global, Module } from '@nestjs/common';
import { AppConfig } from '../../common/config/app-config';
import { TokenBucketLimiter } from './rate-limit';

/**
 * The create limiter, one per API process (N instances allow N times the limit). Global because
 * @RateLimited() routes live in many feature modules and must all spend from the same buckets.
 */
@Global()
@Module({
  providers: [
    {
      provide: TokenBucketLimiter,
      inject: [AppConfig],
      useFactory: (config: AppConfig) =>
        new TokenBucketLimiter({
          name: 'creates',
          perMinute: config.values.RATE_LIMIT_CREATES_PER_MINUTE,
          burst: config.values.RATE_LIMIT_CREATES_BURST,
        }),
    },
  ],
  exports: [TokenBucketLimiter],
})
export class RateLimitModule {}
