import type { Logger } from '../logging/logger.js';
import type { ApiError } from './api-error.js';
import { classify, type ClassifyFacts } from './classify.js';

/**
 * What a request that threw answers, classified in the one place errors are (src/errors/classify.ts), for the
 * surface's renderer; an unexpected failure is logged as itself with the request id.
 */
export function translate(e: unknown, log: Logger, requestId: string, signal?: { aborted: boolean }, facts?: ClassifyFacts): ApiError {
  const { error, unexpected, cause } = classify(e, facts);
  // A client that hung up mid-request is not a fault of ours: no error-level line, nothing to page anyone about.
  if (unexpected && signal?.aborted) log.info({ requestId }, 'client closed the request before it was answered');
  else if (unexpected) log.error({ err: cause, requestId }, 'unexpected error');
  return error;
}
