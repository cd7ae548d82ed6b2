import { Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { AppConfig } from '../../../common/config/app-config';
import { refusesPlaintext } from '../../../common/config/payload-encryption-check';
import { KEY_ENVIRONMENTS, type KeyEnvironment } from '../../../common/keys/api-key';
import type { Caller } from '../keys/key-authenticator';
import type { ApiOperation } from '../openapi/api-operation';
import type { Reviewer } from '../reviewers/reviewer-authenticator';
import { ApiError } from './api-error';

/**
 * Whether an operation stores or returns what payload encryption protects, and so answers
 * ENCRYPTION_REQUIRED (ApiRoute puts it under EncryptionRequiredGuard, the OpenAPI document lists
 * the code): a customer operation says so among its errors; every review operation shows or
 * changes an assessment, except `me`, refused with them as a reviewer has no use for it alone.
 */
export function refusedWithoutEncryption(operation: ApiOperation): boolean {
  return operation.reviewer === true || operation.errors.includes('ENCRYPTION_REQUIRED');
}

/**
 * Refuses a caller (or reviewer) whose environment this process must not serve in plaintext,
 * before its request reads or stores any of that data. Checked per request, so a live key issued
 * after the API started without keys is refused like one that existed then.
 */
@Injectable()
export class EncryptionRequiredGuard implements CanActivate {
  private readonly refused: ReadonlySet<KeyEnvironment>;

  constructor(config: AppConfig) {
    this.refused = new Set(KEY_ENVIRONMENTS.filter((environment) => refusesPlaintext(config, environment)));
  }

  canActivate(context: ExecutionContext): boolean {
    const request = context.switchToHttp().getRequest<{ caller?: Caller; reviewer?: Reviewer }>();
    const environment = (request.caller ?? request.reviewer)?.environment;
    if (!environment) throw new Error('ENCRYPTION_REQUIRED is for authenticated routes only');
    if (this.refused.has(environment)) {
      throw new ApiError(503, 'ENCRYPTION_REQUIRED', 'This instance has no payload encryption keys, so it neither stores nor returns production data; nothing was stored or read');
    }
    return true;
  }
}
