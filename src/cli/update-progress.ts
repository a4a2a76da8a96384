import type { UpdateProgress, UpdateStep } from '../ops/update-cluster';

/**
 * Progress of `update cluster` on stderr. On a terminal (and not in CI), a live bar from cli-progress:
 * tasks done of total, and the current step and task. Elsewhere (a pipe, a log, `CI=true`), plain lines:
 * one per step, one per applied task, one per retry, so a CI log reads top to bottom.
 */
export function updateProgress(stream: NodeJS.WriteStream = process.stderr, env: NodeJS.ProcessEnv = process.env): UpdateProgress & { stop(): void } {
  const live = stream.isTTY === true && !isCi(env);
  return live ? liveProgress(stream) : plainProgress(stream);
}

function isCi(env: NodeJS.ProcessEnv): boolean {
  return env.CI !== undefined && env.CI !== '' && env.CI !== 'false' && env.CI !== '0';
}

function plainProgress(stream: NodeJS.WriteStream): UpdateProgress & { stop(): void } {
  return {
    step: (name: UpdateStep) => void stream.write(`${name}...\n`),
    task: (phase, done, total, current) => {
      if (phase === 'apply') stream.write(`  [${done}/${total}] ${current}\n`);
    },
    retry: (task, error) => void stream.write(`  retrying ${task}: ${error instanceof Error ? error.message : String(error)}\n`),
    stop: () => undefined,
  };
}

function liveProgress(stream: NodeJS.WriteStream): UpdateProgress & { stop(): void } {
  // Loaded only on a terminal: pipes and CI never pay for it.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { SingleBar } = require('cli-progress') as typeof import('cli-progress');
  const bar = new SingleBar({ stream, format: '{step} [{bar}] {value}/{total} {task}', hideCursor: true, clearOnComplete: true, barsize: 24 });
  let started = false;
  let step = '';
  return {
    step: (name) => {
      step = name;
      if (started) bar.update({ step, task: '' });
    },
    task: (_phase, done, total, current) => {
      if (!started) {
        bar.start(total, 0, { step, task: '' });
        started = true;
      }
      bar.setTotal(total);
      bar.update(done, { step, task: current });
    },
    retry: (task) => {
      if (started) bar.update({ step, task: `retrying ${task}` });
    },
    stop: () => {
      if (started) bar.stop();
    },
  };
}
