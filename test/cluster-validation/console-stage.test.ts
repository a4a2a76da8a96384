import * as fs from 'node:fs';
import * as path from 'node:path';
import { describeStage, parseConsoleStage } from '../../src/cluster-validation/console-stage';

const fixture = (name: string): string => fs.readFileSync(path.join(__dirname, '..', 'fixtures', 'console', name), 'latin1');

test('a boot console with escapes, CRLF, cloud-init prefixes and a kernel message inside a stage line ends at done', () => {
  expect(parseConsoleStage(fixture('boot-done.txt'))).toEqual({ stage: 'done', failed: false });
  // The stage the kernel interrupted is read whole.
  const upToAssets = fixture('boot-done.txt').split('kforge-nodeup-stage: files-written')[0];
  expect(parseConsoleStage(upToAssets)).toEqual({ stage: 'assets-installed', failed: false });
});

test('a failed run reports its error code, whatever the kernel and cloud-init print after it', () => {
  expect(parseConsoleStage(fixture('asset-failed.txt'))).toEqual({ stage: 'failed: ASSET_FAILED', failed: true });
});

test('a last line still being written is not a stage; lone CRs end lines', () => {
  expect(parseConsoleStage(fixture('cut-short.txt'))).toEqual({ stage: 'keysets-read', failed: false });
});

test('a marker split by a kernel message on its own line is joined; a complete stage before kernel lines is not spoiled', () => {
  expect(parseConsoleStage('kforge-nodeup-st\r\n[   22.918311] br_netfilter: loading module\r\nage: files-written\r\n')).toEqual({ stage: 'files-written', failed: false });
  expect(parseConsoleStage('kforge-nodeup-stage: done\r\n[   30.1] random: crng init done\r\nUbuntu login: \r\n')).toEqual({ stage: 'done', failed: false });
});

test('no stage, unknown stages and injected text are ignored', () => {
  expect(parseConsoleStage('')).toBeUndefined();
  expect(parseConsoleStage('[    0.000000] Linux version 6.8.0\n')).toBeUndefined();
  expect(parseConsoleStage('kforge-nodeup-stage: rm -rf /\nkforge-nodeup-stage: \x1b[31mdone\x1b[0m\n')).toEqual({ stage: 'done', failed: false });
  expect(parseConsoleStage('kforge-nodeup-stage: failed: lowercase words\n')).toBeUndefined();
});

test("validate's cause for a machine that never joined reads the stage", () => {
  const cause = (name: string): string | undefined => {
    const s = parseConsoleStage(fixture(name));
    return s && describeStage(s);
  };
  expect(cause('asset-failed.txt')).toBe('nodeup failed: ASSET_FAILED');
  expect(cause('boot-done.txt')).toBe('nodeup finished; kubelet has not registered the node (check kubelet and the API name)');
  expect(cause('cut-short.txt')).toBe('nodeup read its keysets, then stopped reporting (installing assets)');
});
