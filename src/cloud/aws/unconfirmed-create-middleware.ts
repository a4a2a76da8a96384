import type { CountableClient } from './api-call-counter';

// Creates whose API takes no idempotency token: sending one twice makes two resources.
const UNSAFE_TO_RESEND = /^(Create|Allocate)/;

/**
 * Installs a middleware that stops the SDK from resending a create without a ClientToken after the
 * connection failed with the request already sent: the cloud may have made the resource, and a resend
 * would make a second one. The error becomes `RequestOutcomeUnknown` (classified in aws-errors.ts), which
 * the SDK does not retry; the task executor retries instead, finding the resource by its tags first.
 */
export function installUnconfirmedCreateGuard(client: CountableClient): void {
  client.middlewareStack.add(
    (next: (args: { input?: Record<string, unknown> }) => Promise<unknown>, context: { commandName?: string }) =>
      async (args: { input?: Record<string, unknown> }) => {
        try {
          return await next(args);
        } catch (e) {
          const op = context.commandName?.replace(/Command$/, '') ?? '';
          const answered = typeof (e as { $metadata?: { httpStatusCode?: unknown } }).$metadata?.httpStatusCode === 'number';
          if (answered || !UNSAFE_TO_RESEND.test(op) || args.input?.ClientToken !== undefined) throw e;
          // No `cause` property: the SDK's transient-error check follows `cause` and would retry anyway.
          const detail = e instanceof Error ? e.message : String(e);
          throw Object.assign(new Error(`${op}: the connection failed after the request was sent (${detail}); whether it was applied is unknown`), {
            name: 'RequestOutcomeUnknown',
            originalError: e,
          });
        }
      },
    { step: 'deserialize', name: 'kforgeUnconfirmedCreateGuard', priority: 'high' },
  );
}
