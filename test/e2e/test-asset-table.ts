import * as fs from 'node:fs';
import { releaseFiles } from './release-files';

/** A stand-in for a Kubernetes binary: no Kubernetes binaries are installable on the test machine. */
const STAND_IN = (name: string): Buffer => Buffer.from(`#!/bin/sh\n# stand-in ${name}: no Kubernetes binaries are installable on the test machine\nexit 0\n`);

/**
 * The e2e tests' asset table (docs/node-bootstrap.md): each amd64 download a node makes, by the end of its URL
 * path, answered with the real release file (the Node.js runtime, containerd, runc, the CNI plugins) or a
 * stand-in (kubelet, kubectl), for a local asset server.
 */
export function testAssetTable(): Array<[RegExp, Buffer]> {
  const files = releaseFiles();
  return [
    [/\/node-v[^/]*-linux-x64\.tar\.xz$/, fs.readFileSync(files.node)],
    [/\/containerd-[^/]*\.tar\.gz$/, fs.readFileSync(files.containerd)],
    [/\/runc\.amd64$/, fs.readFileSync(files.runc)],
    [/\/cni-plugins-[^/]*\.tgz$/, fs.readFileSync(files.cni)],
    [/\/kubelet$/, STAND_IN('kubelet')],
    [/\/kubectl$/, STAND_IN('kubectl')],
  ];
}
