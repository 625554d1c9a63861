#!/usr/bin/env node
'use strict'
// Cold require time: spawns fresh Node processes that each require one entry point once, and
// reports the median of the require itself (wall clock around require), of the require and a
// first call (randombytes_buf of 32 bytes: what natrium leaves to first use, building a main-API
// function and sodium_init with its random source, is then paid), and of the whole process (spawn
// to exit, Node's own start-up included; a process that requires nothing is shown for scale).
// The cases alternate round by round so that load from other processes spreads over all; the
// CPU time of the require (all of the process's threads) is shown too, as it varies less than the
// wall clock on a busy machine (it leaves out the time spent waiting for a core).
// The child is this file run as a script, not `node -e`: -e preloads node:crypto and the streams,
// which would hide what natrium's own loading costs.
// Usage: node scripts/cold-require.js [rounds=21] [--compare] [--root DIR]...
//   --compare   adds libsodium-wrappers-sumo, timed to its `ready`
//   --root DIR  times the package in DIR (a checkout with its builds) instead of this one; give it
//               more than once to compare checkouts side by side
if (process.argv[2] === '--child') {
  const [, , , root, entry, wait] = process.argv
  const from = require('module').createRequire(`${root}/package.json`)
  const c0 = process.cpuUsage()
  const t0 = process.hrtime.bigint()
  const m = from(entry)
  const done = () => {
    const required = Number(process.hrtime.bigint() - t0) / 1e6
    const cpu = process.cpuUsage(c0)
    if (entry === 'natrium/sodium-native') m.randombytes_buf(Buffer.alloc(32))
    else if (entry !== 'path') m.randombytes_buf(32)
    const called = Number(process.hrtime.bigint() - t0) / 1e6
    // after the clock: process.stdout loads the streams
    process.stdout.write(`${required} ${called} ${(cpu.user + cpu.system) / 1000}`)
  }
  if (process.env.NATRIUM_BACKEND && m.backend !== process.env.NATRIUM_BACKEND) throw new Error(`wrong backend ${m.backend}`)
  if (wait) m.ready.then(done)
  else done()
  return
}

const { spawnSync } = require('child_process')
const path = require('path')

const args = process.argv.slice(2)
const rounds = Number(args.find((a) => /^\d+$/.test(a)) || 21)
const roots = args.flatMap((a, i) => args[i - 1] === '--root' ? [path.resolve(a)] : [])
if (roots.length === 0) roots.push(path.join(__dirname, '..'))

const cases = [{ label: 'node, requiring nothing', root: roots[0], entry: 'path' }]
for (const backend of ['wasm', 'native']) {
  for (const entry of ['natrium', 'natrium/sodium-native']) {
    for (const root of roots) {
      const where = roots.length > 1 ? ` [${path.basename(root)}]` : ''
      cases.push({ label: `${entry} ${backend}${where}`, env: { NATRIUM_BACKEND: backend }, root, entry })
    }
  }
}
if (args.includes('--compare')) {
  cases.push({ label: 'libsodium-wrappers-sumo (to ready)', root: roots[0], entry: 'libsodium-wrappers-sumo', wait: 'ready' })
}

const median = (xs) => xs.slice().sort((a, b) => a - b)[xs.length >> 1]

for (const c of cases) { c.inside = []; c.call = []; c.cpu = []; c.wall = [] }
for (let r = 0; r < rounds; r++) {
  for (const c of cases) {
    const env = { ...process.env, ...c.env }
    if (!c.env) delete env.NATRIUM_BACKEND
    const t0 = process.hrtime.bigint()
    const p = spawnSync(process.execPath, [__filename, '--child', c.root, c.entry, c.wait || ''], { env, encoding: 'utf8' })
    const wall = Number(process.hrtime.bigint() - t0) / 1e6
    if (p.status !== 0) throw new Error(`${c.label}: exit ${p.status}\n${p.stderr}`)
    const [required, called, cpu] = p.stdout.split(' ').map(Number)
    c.inside.push(required)
    c.call.push(called)
    c.cpu.push(cpu)
    c.wall.push(wall)
  }
}

console.log(`cold require, median of ${rounds} fresh processes (Node ${process.version}, ${process.platform}-${process.arch})`)
const heads = ['require ms', 'min', 'CPU ms', '+1st call', 'process ms']
console.log(`${'entry'.padEnd(40)} ${heads.map((h) => h.padStart(10)).join(' ')}`)
for (const c of cases) {
  const cells = [median(c.inside), Math.min(...c.inside), median(c.cpu), median(c.call), median(c.wall)]
  console.log(`${c.label.padEnd(40)} ${cells.map((x) => x.toFixed(1).padStart(10)).join(' ')}`)
}
