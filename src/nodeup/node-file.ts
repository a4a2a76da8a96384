/** One file nodeup writes on a node: an absolute path on the node, its permission bits and its content. */
export interface NodeFile {
  /** Absolute path on the node, e.g. `/etc/containerd/config.toml`. */
  path: string;
  /** Permission bits, e.g. 0o644. */
  mode: number;
  /** The whole content, UTF-8. */
  content: string;
}
