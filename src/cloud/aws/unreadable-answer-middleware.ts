import type { CountableClient } from './api-call-counter';
import { isUnreadableAnswer, unreadableAnswerMessage } from './aws-errors';

/**
 * Installs a middleware that turns an answer the SDK could not parse (an HTML page from a proxy or load
 * balancer instead of AWS's XML or JSON) into a message naming the operation, the endpoint and the HTTP
 * status, in place of the parser's "XML parse error: mismatched tags <html> and </title>". The error keeps
 * its class and status, so retries and classification are unchanged.
 */
export function installUnreadableAnswerMessage(client: CountableClient): void {
  client.middlewareStack.add(
    (next: (args: unknown) => Promise<unknown>, context: { commandName?: string; clientName?: string }) => async (args: unknown) => {
      try {
        return await next(args);
      } catch (e) {
        if (isUnreadableAnswer(e)) {
          const request = (args as { request?: { protocol?: string; hostname?: string; port?: number } }).request;
          const endpoint = request?.hostname ? `${request.protocol ?? 'https:'}//${request.hostname}${request.port ? `:${request.port}` : ''}` : 'the endpoint';
          const service = (context.clientName ?? '').replace(/Client$/, '');
          const operation = `${service ? `${service} ` : ''}${context.commandName?.replace(/Command$/, '') ?? 'a call'}`;
          (e as Error).message = unreadableAnswerMessage(e, operation, endpoint);
        }
        throw e;
      }
    },
    // Just above the deserializer: the request (with its endpoint) and the parse error are both in reach.
    { step: 'deserialize', name: 'kforgeUnreadableAnswer', priority: 'high' },
  );
}
