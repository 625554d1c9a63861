'use strict'
// AES-256-GCM encryption speed of natrium's portable constant-time code (src/crypto/
// aes256gcm_soft.c) on both backends, against node:crypto (OpenSSL, AES-NI where the CPU has it)
// and @noble/ciphers' gcm (JavaScript with table lookups: not constant time), in one process,
// alternated rounds of ~20 ms timed in CPU time (process.cpuUsage: a shared machine's waits for a
// core do not count); reported: the median round of each in MB/s, and ratios.
//   node bench/aes256gcm_soft.js [sizes...] [--rounds N]
// It re-runs itself with NATRIUM_AES=soft, so the native backend runs the portable code too.
// natrium is called through the raw binding with a reused output buffer; node:crypto and noble
// allocate theirs.
const { spawnSync } = require('child_process')
if (process.env.NATRIUM_AES !== 'soft') {
  const r = spawnSync(process.execPath, [__filename, ...process.argv.slice(2)], { stdio: 'inherit', env: { ...process.env, NATRIUM_AES: 'soft' } })
  process.exit(r.status)
}
const crypto = require('crypto')
const { load } = require('../lib/loader')
const { cpuName } = require('./cpu-rate')

const args = process.argv.slice(2)
const flag = (name, dflt) => { const i = args.indexOf(name); return i < 0 ? dflt : args.splice(i, 2)[1] }
const rounds = Number(flag('--rounds', 15))
const sizes = args.length ? args.map(Number) : [1024, 1 << 20]

async function main () {
  const { gcm } = await import('@noble/ciphers/aes.js')
  const native = load('native').binding
  const wasm = load('wasm').binding
  const k = new Uint8Array(32).fill(7)
  const n = new Uint8Array(12).fill(9)
  const key = crypto.createSecretKey(k)
  console.log(`CPU: ${cpuName()}; Node ${process.version}; NATRIUM_AES=soft`)
  for (const size of sizes) {
    const m = new Uint8Array(size).fill(1)
    const c = new Uint8Array(size + 16)
    const fns = {
      'natrium native (soft)': () => native.crypto_aead_aes256gcm_encrypt(c, m, null, null, n, k),
      'natrium wasm (soft)': () => wasm.crypto_aead_aes256gcm_encrypt(c, m, null, null, n, k),
      'node:crypto': () => {
        const x = crypto.createCipheriv('aes-256-gcm', key, n)
        const out = Buffer.concat([x.update(m), x.final(), x.getAuthTag()])
        return out.length
      },
      '@noble/ciphers gcm': () => gcm(k, n).encrypt(m).length
    }
    // every contender's answer first
    const want = Buffer.from(fns['@noble/ciphers gcm'] && gcm(k, n).encrypt(m)).toString('hex')
    for (const name of ['natrium native (soft)', 'natrium wasm (soft)']) {
      c.fill(0)
      fns[name]()
      if (Buffer.from(c).toString('hex') !== want) throw new Error(`${name} differs`)
    }
    const times = Object.fromEntries(Object.keys(fns).map((f) => [f, []]))
    const iters = {}
    for (const [name, fn] of Object.entries(fns)) {
      let it = 1
      for (;;) {
        const t0 = process.hrtime.bigint()
        for (let i = 0; i < it; i++) fn()
        if (Number(process.hrtime.bigint() - t0) > 20e6) break
        it *= 2
      }
      iters[name] = it
    }
    for (let r = 0; r < rounds; r++) {
      for (const [name, fn] of Object.entries(fns)) {
        const cpu0 = process.cpuUsage()
        for (let i = 0; i < iters[name]; i++) fn()
        const cpu = process.cpuUsage(cpu0)
        times[name].push((cpu.user + cpu.system) * 1e3 / iters[name])
      }
    }
    const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1]
    const mbs = Object.fromEntries(Object.entries(times).map(([f, t]) => [f, size / median(t) * 1e3]))
    console.log(`\n${size} bytes:`)
    for (const [f, v] of Object.entries(mbs)) {
      console.log(`  ${f.padEnd(24)} ${v.toFixed(1).padStart(8)} MB/s   ${(v / mbs['@noble/ciphers gcm']).toFixed(2)}x noble  ${(v / mbs['node:crypto']).toFixed(3)}x node:crypto`)
    }
  }
}

main().catch((e) => { console.error(e); process.exit(1) })
