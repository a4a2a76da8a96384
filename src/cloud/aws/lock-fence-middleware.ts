import { CountableClient, isReadOnlyOperation } from './api-call-counter';

/**
 * Installs a middleware that calls `fence()` before every HTTP attempt of a mutating operation (the
 * SDK's own retries included) and fails the call with its error: a command that has lost its cluster
 * lock sends no further change. Reads go through. `fence` is looked up per call, so a cloud made before
 * the lock was taken is fenced from then on.
 */
export function installLockFence(client: CountableClient, fence: () => (() => Promise<void>) | undefined): void {
  client.middlewareStack.add(
    (next: (args: unknown) => Promise<unknown>, context: { commandName?: string }) => async (args: unknown) => {
      const verify = fence();
      if (verify && !isReadOnlyOperation(context.commandName?.replace(/Command$/, '') ?? '')) await verify();
      return next(args);
    },
    // After the SDK's retry middleware (finalizeRequest, high): once per attempt, before anything is sent.
    { step: 'finalizeRequest', name: 'kforgeLockFence', priority: 'low' },
  );
}
