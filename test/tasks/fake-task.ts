import type { Change, Task } from '../../src/tasks/task';
import { TerraformNotSupportedError } from '../../src/tasks/terraform-not-supported-error';

/** A shared in-memory "cloud" for fake tasks: what exists, and a log of what ran. */
export interface FakeCloud {
  existing: Map<string, number>;
  log: string[];
  running: number;
  maxRunning: number;
}

/** A task over FakeCloud: its resource is a number; apply sleeps, may fail a given number of times. */
export class FakeTask implements Task<FakeCloud, number> {
  kind = 'Fake';
  deps: FakeTask[] = [];
  /** When set, find throws it (e.g. an access-denied error). */
  findError?: Error;
  failures = 0;
  failWith: Error = Object.assign(new Error('throttled'), { retryable: true });
  applyCalls = 0;

  constructor(
    readonly name: string,
    readonly value = 1,
    private readonly delayMs = 5,
  ) {}

  dependencies(): readonly FakeTask[] {
    return this.deps;
  }

  async find(cloud: FakeCloud): Promise<number | undefined> {
    if (this.findError) throw this.findError;
    return cloud.existing.get(this.name);
  }

  diff(actual: number | undefined): Change[] {
    return actual === this.value ? [] : [{ field: 'value', from: actual, to: this.value }];
  }

  check(): void {}

  async apply(cloud: FakeCloud): Promise<void> {
    this.applyCalls++;
    cloud.running++;
    cloud.maxRunning = Math.max(cloud.maxRunning, cloud.running);
    try {
      await new Promise((r) => setTimeout(r, this.delayMs));
      for (const d of this.deps) if (!cloud.existing.has(d.name)) throw new Error(`${this.name} ran before ${d.name}`);
      if (this.failures > 0) {
        this.failures--;
        throw this.failWith;
      }
      cloud.existing.set(this.name, this.value);
      cloud.log.push(this.name);
    } finally {
      cloud.running--;
    }
  }

  renderTerraform(): void {
    throw new TerraformNotSupportedError(this.kind);
  }
}

/** A fresh empty FakeCloud. */
export function fakeCloud(): FakeCloud {
  return { existing: new Map(), log: [], running: 0, maxRunning: 0 };
}
