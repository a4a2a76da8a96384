import * as os from 'node:os';
import * as path from 'node:path';

// `update cluster --yes` writes the user's kubeconfig, as kops does: no test may touch the runner's
// ~/.kube/config, so every test process (and the CLI it spawns) gets a kubeconfig of its own. Tests of the
// default path remove KUBECONFIG from their child's environment and set HOME instead.
process.env.KUBECONFIG = path.join(os.tmpdir(), `kforge-test-kubeconfig-${process.pid}`);
