/**
 * A value a task produces once its resource exists (an id), read by the tasks that depend on it. This is
 * how a subnet learns its VPC's id without calling the VPC task's code.
 */
export class TaskOutput<T> {
  private value: T | undefined;

  constructor(private readonly description: string) {}

  /** Records the value; called by the owning task's find or apply. */
  set(value: T): void {
    this.value = value;
  }

  /** The value, or undefined while the resource does not exist yet (a plan of a create). */
  peek(): T | undefined {
    return this.value;
  }

  /** The value; throws when the owner has not produced it, which means a missing dependency edge. */
  get(): T {
    if (this.value === undefined) throw new Error(`${this.description} is not known yet: is the task that produces it a dependency?`);
    return this.value;
  }
}
