import { createPublicKey } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { NodeupConfig } from '../model/nodeup-config-builder';
import { nodeKeyFingerprint } from '../node-identity/node-request-record';
import { requestApprovedCertificates } from '../node-identity/request-approved-certificates';
import type { CertificateRequester } from './node-identity-certificates';

/**
 * nodeup's requester in Approval mode (`ConfigServer.Approval`): no cloud proof; while the request is
 * pending it prints (`write`: stderr and the console, as the stages) the request's name, its key fingerprints (compare them with `kforge get
 * node-requests` before approving) and the command that approves it, then polls with a doubling wait
 * (5 s up to 60 s; KFORGE_TEST_APPROVAL_POLL_MS shortens the first wait for tests) for at most 24 hours.
 */
export function approvalRequester(config: NodeupConfig, write: (line: string) => void): CertificateRequester {
  const server = config.ConfigServer as NonNullable<NodeupConfig['ConfigServer']>;
  const testPoll = Number(process.env.KFORGE_TEST_APPROVAL_POLL_MS) || undefined;
  return (nodeName, publicKeys) => {
    const prints = Object.keys(publicKeys)
      .sort()
      .map((k) => `${k} ${nodeKeyFingerprint(createPublicKey(publicKeys[k]))}`)
      .join(', ');
    let told = '';
    return requestApprovedCertificates(nodeName, publicKeys, {
      cluster: config.ClusterName,
      servers: server.Servers,
      caCertificates: server.CACertificates,
      pollMs: testPoll,
      maxPollMs: testPoll ? testPoll * 4 : undefined,
      onUnreachable: (failures, next) => write(`kforge-nodeup: node request ${told} could not be asked about (${failures}); asking again in ${Math.round(next / 1000)} s`),
      onPending: (name, at, next) => {
        // The full message once; later polls only say they still wait.
        if (told !== name) write(`kforge-nodeup: node request ${name} for node ${nodeName} (${prints}) is pending at ${at}: approve it with "kforge approve node-request ${name}" (or refuse it with "kforge deny node-request ${name}")`);
        else write(`kforge-nodeup: node request ${name} still pending; asking again in ${Math.round(next / 1000)} s`);
        told = name;
      },
    });
  };
}

/**
 * Where nodeup's approval notices go: stderr and, as the stage lines, the console (KFORGE_NODEUP_CONSOLE, or
 * /dev/console when the root is `/`), which EC2's GetConsoleOutput shows: the operator can read the
 * fingerprints there before approving.
 */
export function noticeWriter(root: string, consolePath: string | undefined = process.env.KFORGE_NODEUP_CONSOLE || undefined): (line: string) => void {
  const console = consolePath ?? (path.resolve(root) === '/' ? '/dev/console' : undefined);
  return (line) => {
    process.stderr.write(`${line}\n`);
    if (!console) return;
    try {
      fs.appendFileSync(console, `${line}\n`);
    } catch {
      // No console (a container, no permission): stderr carries the notice.
    }
  };
}
