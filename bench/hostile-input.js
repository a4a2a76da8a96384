#!/usr/bin/env node
// Hostile-input benchmark: runs `kforge create -f` on inputs built to exhaust memory or time — a YAML
// alias bomb, a 50 MB list, a 50 MB string (from a file and from stdin), a list just under the file
// size limit, an endless /dev/zero, a symlinked cluster directory, a negative lock TTL — and reports, for each refusal, the wall time and the peak RSS of the
// CLI process (read by a preloaded module from process.resourceUsage() as the process exits).
// Targets (the "state store survives hostile input" issue): each refused in under 2 s and 200 MB.
// Usage: node bench/hostile-input.js [runs]   (default 3; the median time and the largest RSS are shown)
// Exits 1 if an input is not refused with the expected message; timings are reported, not asserted.
'use strict';
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { spawnSync } = require('node:child_process');

const runs = Number(process.argv[2] || 3);
const root = path.join(__dirname, '..');
const bin = path.join(root, 'bin', 'run.js');
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'kforge-bench-hostile-'));
const store = path.join(work, 'store');
const TARGET_MS = 2000;
const TARGET_MB = 200;

// The child writes its peak RSS (process.resourceUsage().maxRSS, in KiB) to this file when it exits.
const rssFile = path.join(work, 'rss');
const reporter = path.join(work, 'report-rss.js');
fs.writeFileSync(reporter, `process.on('exit', () => require('fs').writeFileSync(${JSON.stringify(rssFile)}, String(process.resourceUsage().maxRSS)));\n`);

// Inputs, generated here (not committed): the minimal kops cluster with one hostile part.
const base = fs.readFileSync(path.join(root, 'test', 'fixtures', 'kops', 'minimal.yaml'), 'utf8');
const write = (name, text) => {
  const file = path.join(work, name);
  fs.writeFileSync(file, text);
  return file;
};
let bomb = '  kubeDNS:\n    affinity:\n      a0: &a0 ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]\n';
for (let i = 1; i < 10; i++) bomb += `      a${i}: &a${i} [${Array(9).fill(`*a${i - 1}`).join(',')}]\n`;
const withSpec = (extra) => base.replace(/^spec:\n/m, `spec:\n${extra}`);
const withAnnotation = (value) => base.replace(/^metadata:\n/m, `metadata:\n  annotations:\n    big: ${value}\n`);
const accessList = (n) => `  kubernetesApiAccess:\n${'  - 0.0.0.0/0\n'.repeat(n)}`;
const bigString = withAnnotation('x'.repeat(50 * 1024 * 1024));

const cases = [
  { name: 'alias bomb (2 KB, 387M values expanded)', file: write('alias-bomb.yaml', withSpec(bomb)), expect: 'YAML aliases are expanded' },
  { name: '50 MB list', file: write('list-50mb.yaml', withSpec(accessList(Math.ceil((50 * 1024 * 1024) / 14)))), expect: 'larger than 4 MiB' },
  { name: '50 MB string', file: write('string-50mb.yaml', bigString), expect: 'larger than 4 MiB' },
  { name: '50 MB string on stdin', file: '-', input: bigString, expect: 'larger than 4 MiB' },
  { name: 'list of 280,000 items (3.9 MB)', file: write('list-280k.yaml', withSpec(accessList(280_000))), expect: 'more than 100,000 values' },
  { name: '300 KiB string', file: write('string-300k.yaml', withAnnotation('x'.repeat(300 * 1024))), expect: 'longer than the 256 KiB limit' },
  { name: 'endless input (/dev/zero)', file: '/dev/zero', expect: 'larger than 4 MiB' },
  // Not input size, but the other hostile settings the issue names: they too must be refused at once.
  { name: 'cluster directory is a symlink', file: path.join(root, 'test', 'fixtures', 'kops', 'minimal.yaml'), store: symlinkedStore(), expect: 'is a symbolic link inside the state store' },
  { name: 'KFORGE_LOCK_TTL_SECONDS=-1', file: path.join(root, 'test', 'fixtures', 'kops', 'minimal.yaml'), env: { KFORGE_LOCK_TTL_SECONDS: '-1' }, expect: 'KFORGE_LOCK_TTL_SECONDS="-1" is not valid' },
];

/** A store whose cluster directory (of the minimal fixture's cluster) links to a directory outside it. */
function symlinkedStore() {
  const dir = path.join(work, 'linked-store');
  const outside = path.join(work, 'outside');
  fs.mkdirSync(dir, { recursive: true });
  fs.mkdirSync(outside, { recursive: true });
  const name = /^metadata:\n {2}name: (\S+)/m.exec(base)[1];
  fs.symlinkSync(outside, path.join(dir, name));
  return dir;
}

function runOnce(c) {
  fs.rmSync(rssFile, { force: true });
  const start = process.hrtime.bigint();
  const r = spawnSync(process.execPath, ['--require', reporter, bin, 'create', '-f', c.file, '--state', c.store ?? store], {
    input: c.input ?? '',
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1', KFORGE_STATE_STORE: '', ...c.env },
    maxBuffer: 16 * 1024 * 1024,
  });
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  const rssMb = fs.existsSync(rssFile) ? Number(fs.readFileSync(rssFile, 'utf8')) / 1024 : NaN;
  const refused = r.status === 1 && r.stderr.startsWith('Error: ') && r.stderr.includes(c.expect) && !r.stderr.includes('    at ');
  return { ms, rssMb, refused, stderr: r.stderr, status: r.status };
}

console.log(`hostile input: kforge create -f, ${runs} runs each (median wall time, largest peak RSS) on ${os.cpus().length} cores (${os.cpus()[0].model})`);
console.log(`targets: refused in under ${TARGET_MS} ms and ${TARGET_MB} MB\n`);
let failed = false;
for (const c of cases) {
  const results = Array.from({ length: runs }, () => runOnce(c));
  const times = results.map((x) => x.ms).sort((a, b) => a - b);
  const median = times[Math.floor(times.length / 2)];
  const rss = Math.max(...results.map((x) => x.rssMb));
  const refused = results.every((x) => x.refused);
  if (!refused) failed = true;
  const verdict = !refused ? 'NOT REFUSED AS EXPECTED' : median < TARGET_MS && rss < TARGET_MB ? 'ok' : 'over target';
  console.log(`${c.name.padEnd(42)} ${median.toFixed(0).padStart(6)} ms ${rss.toFixed(0).padStart(5)} MB  ${verdict}`);
  // The error's detail line (file:line: path: what), with the temporary directory left out.
  const detail = (results[0].stderr.split('\n')[1] ?? results[0].stderr).trim().split(`${work}/`).join('');
  console.log(`${''.padEnd(42)} exit ${results[0].status}: ${detail.length > 140 ? `${detail.slice(0, 140)}…` : detail}`);
}
fs.rmSync(work, { recursive: true, force: true });
process.exitCode = failed ? 1 : 0;
