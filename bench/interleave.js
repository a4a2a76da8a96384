// Shared by the benchmarks: runs commands interleaved (so machine noise hits all of them alike) and
// reports medians as ratios to a baseline measured in the same run.
'use strict';
const { spawnSync } = require('node:child_process');

/** The median of a list of numbers. */
function median(xs) {
  return [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
}

/** Runs each case `runs` times, interleaved; a case is a function returning [command, args]. Returns ms lists by case name. */
function interleave(cases, runs) {
  const times = Object.fromEntries(Object.keys(cases).map((k) => [k, []]));
  for (let i = 0; i < runs; i++) {
    for (const [name, make] of Object.entries(cases)) {
      const [cmd, args] = make();
      const t0 = process.hrtime.bigint();
      const r = spawnSync(cmd, args, { stdio: ['ignore', 'ignore', 'pipe'] });
      times[name].push(Number(process.hrtime.bigint() - t0) / 1e6);
      if (r.status !== 0) throw new Error(`${name} failed: ${r.stderr}`);
    }
  }
  return times;
}

/** Prints one line per case: median, ratio to the `baseline` case's median, and the slowest run. */
function report(times, baseline, width = 38) {
  const base = median(times[baseline]);
  for (const [name, xs] of Object.entries(times)) {
    console.log(`${name.padEnd(width)} ${median(xs).toFixed(1).padStart(8)} ms   ratio ${(median(xs) / base).toFixed(2)} to ${baseline}, max ${Math.max(...xs).toFixed(0)} ms`);
  }
}

module.exports = { median, interleave, report };
