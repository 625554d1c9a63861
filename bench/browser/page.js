// The browser benchmark page (bundled by bench/browser/run.js with esbuild, platform browser): the
// seed article's table — Ed25519 keypair, sign, verify; XChaCha20-Poly1305 keygen, encrypt,
// decrypt; 10 B, 1 KB, 100 KB, 1 MB — timed with Benchmark.js for natrium (its browser entry: the
// WebAssembly build with the bytes embedded, resolved through package.json "exports" as any
// bundler would), libsodium-wrappers and @noble/*. Every answer is checked before anything is
// timed: against node:crypto's signatures and libsodium's ciphertexts computed by the server
// (/config.json), and across the libraries (each verifies the others' signatures and decrypts the
// others' ciphertexts; forgeries are refused). The result is shown on the page and POSTed to the
// server (/results), which writes bench/results/browser-*.
import BenchmarkModule from 'benchmark'
import lodash from 'lodash'
import natrium from 'natrium'
import lsw from 'libsodium-wrappers'
import { ed25519 } from '@noble/curves/ed25519.js'
import { xchacha20poly1305 } from '@noble/ciphers/chacha.js'
import { randomBytes } from '@noble/ciphers/utils.js'
import inputs from '../inputs.js'
import report from './report.js'

const { TAG, fill, sizeLabel } = inputs

// Bundled, Benchmark.js finds no require() for lodash and comes out uninitialised: hand it lodash
// (its own dependency); the timing loops it compiles name the global Benchmark. Then call the contender's function as it is (no source rewriting), as
// bench/runner.js does.
const Benchmark = BenchmarkModule.runInContext({ _: lodash })
globalThis.Benchmark = Benchmark
Benchmark.support.decompilation = false

// Every result lands here, so no call can be optimised away as dead code.
const sink = { value: null }

// natrium's main API is libsodium-wrappers' API: the same calls, each allocating its result.
function sodiumOps (s) {
  return {
    keypair: () => () => s.crypto_sign_keypair(),
    keyOf: (k) => ({ pk: k.publicKey, seed: k.privateKey.slice(0, 32), tail: k.privateKey.slice(32) }),
    publicOf: (seed) => s.crypto_sign_seed_keypair(seed).publicKey,
    sign: (m, key) => () => s.crypto_sign_detached(m, key.sk),
    verify: (sig, m, pk) => () => s.crypto_sign_verify_detached(sig, m, pk),
    keygen: () => () => s.crypto_aead_xchacha20poly1305_ietf_keygen(),
    encrypt: (m, n, k) => () => s.crypto_aead_xchacha20poly1305_ietf_encrypt(m, null, null, n, k),
    decrypt: (c, n, k) => () => s.crypto_aead_xchacha20poly1305_ietf_decrypt(null, c, null, n, k)
  }
}

// noble signs with the 32-byte secret key and derives the key pair per call (its API); a noble
// cipher is bound to one key and nonce, so it is made per message (the cost its users pay).
const nobleOps = {
  keypair: () => () => ed25519.keygen(),
  keyOf: (k) => ({ pk: k.publicKey, seed: k.secretKey }),
  publicOf: (seed) => ed25519.getPublicKey(seed),
  sign: (m, key) => () => ed25519.sign(m, key.seed),
  verify: (sig, m, pk) => () => ed25519.verify(sig, m, pk),
  keygen: () => () => randomBytes(32),
  encrypt: (m, n, k) => () => xchacha20poly1305(k, n).encrypt(m),
  decrypt: (c, n, k) => () => xchacha20poly1305(k, n).decrypt(c)
}

const LIBS = [
  { id: 'natrium-wasm', contender: 'natrium wasm', ops: sodiumOps(natrium) },
  { id: 'libsodium-wrappers', contender: 'libsodium-wrappers', ops: sodiumOps(lsw) },
  { id: 'noble', contender: '@noble/*', ops: nobleOps }
]

// ---- small helpers ----

const hex = (b) => Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('')
const isBytes = (x, n) => x instanceof Uint8Array && (n === undefined || x.length === n)
function equal (a, b) {
  if (!isBytes(a) || !isBytes(b) || a.length !== b.length) return false
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false
  return true
}
const flipped = (b, i) => { const c = b.slice(); c[i] ^= 1; return c }
async function sha256 (b) {
  return hex(new Uint8Array(await crypto.subtle.digest('SHA-256', b)))
}
function attempt (fn) {
  try {
    return { value: fn() }
  } catch (err) {
    return { error: String(err && err.message ? err.message : err) }
  }
}
const accepted = (r) => !r.error && r.value === true
const describe = (r) => (r.error ? `threw "${r.error}"` : isBytes(r.value) ? `Uint8Array(${r.value.length})` : `answered ${String(r.value)}`)
const median = (xs) => {
  const s = xs.slice().sort((a, b) => a - b)
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2
}

// ---- the cases: check(libs) -> Map(lib id -> true | why not), prepare(lib) -> timed function ----

function buildCases (config) {
  const seed = fill(TAG.SEED, 32)
  const pk = fromHex(config.reference.publicKey)
  const key = { seed, pk, sk: new Uint8Array([...seed, ...pk]) }
  const k = fill(TAG.KEY, 32)
  const n = fill(TAG.NONCE, 24)
  const probe = fill(TAG.MSG, 64)
  const cases = []

  cases.push({
    family: 'ed25519',
    op: 'ed25519 keypair',
    check (libs) {
      const verdict = new Map()
      // every library derives the reference public key from the reference seed
      for (const lib of libs) {
        const r = attempt(() => lib.ops.publicOf(seed))
        if (!equal(r.value, pk)) verdict.set(lib.id, `derives the wrong public key from a seed (${describe(r)})`)
      }
      for (const lib of libs) {
        if (verdict.has(lib.id)) continue
        const made = [attempt(lib.ops.keypair()), attempt(lib.ops.keypair())]
        const bad = made.find((r) => r.error)
        if (bad) { verdict.set(lib.id, `keypair threw "${bad.error}"`); continue }
        const [a, b] = made.map((r) => lib.ops.keyOf(r.value))
        const why = [a, b].map((x) => (!isBytes(x.pk, 32) ? 'public key is not 32 bytes'
          : !isBytes(x.seed, 32) ? 'secret seed is not 32 bytes'
            : x.tail && !equal(x.tail, x.pk) ? 'secret key does not end with its public key' : null)).find(Boolean) ||
          (equal(a.seed, b.seed) ? 'two key pairs came out equal' : null)
        if (why) { verdict.set(lib.id, why); continue }
        // the key pair works everywhere: every other library derives its public key, and a
        // signature made with it by one library verifies in every library
        const full = { seed: a.seed, pk: a.pk, sk: new Uint8Array([...a.seed, ...a.pk]) }
        for (const other of libs) {
          if (!equal(attempt(() => other.ops.publicOf(a.seed)).value, a.pk)) { verdict.set(lib.id, `its public key is not the one ${other.contender} derives from its seed`); break }
          const sig = attempt(other.ops.sign(probe, full)).value
          const who = libs.find((v) => !accepted(attempt(v.ops.verify(sig, probe, a.pk))))
          if (who) { verdict.set(lib.id, `${other.contender}'s signature with its key pair does not verify in ${who.contender}`); break }
        }
      }
      return verdict
    },
    prepare: (lib) => lib.ops.keypair()
  })

  for (const size of config.sizes) {
    const m = fill(TAG.MSG, size)
    const sig = fromHex(config.reference.signatures[size])
    cases.push({
      family: 'ed25519',
      op: 'ed25519 sign',
      size,
      check (libs) {
        const verdict = new Map()
        const forged = flipped(sig, 0)
        for (const lib of libs) {
          const r = attempt(lib.ops.sign(m, key))
          if (!equal(r.value, sig)) { verdict.set(lib.id, `signature differs from node:crypto's (${describe(r)})`); continue }
          // it verifies the others' (equal, correct) signatures and refuses a forged one
          if (!accepted(attempt(lib.ops.verify(r.value, m, pk)))) verdict.set(lib.id, 'does not verify its own signature')
          else if (accepted(attempt(lib.ops.verify(forged, m, pk)))) verdict.set(lib.id, 'accepts a forged signature')
        }
        for (const signer of libs) {
          if (verdict.has(signer.id)) continue
          const s = attempt(signer.ops.sign(m, key)).value
          for (const v of libs) {
            if (!verdict.has(v.id) && !accepted(attempt(v.ops.verify(s, m, pk)))) verdict.set(v.id, `does not verify ${signer.contender}'s signature`)
          }
        }
        return verdict
      },
      prepare: (lib) => lib.ops.sign(m, key)
    })
  }

  for (const size of config.sizes) {
    const m = fill(TAG.MSG, size)
    const sig = fromHex(config.reference.signatures[size])
    cases.push({
      family: 'ed25519',
      op: 'ed25519 verify',
      size,
      check (libs) {
        const verdict = new Map()
        const other = flipped(m, m.length - 1)
        for (const lib of libs) {
          const r = attempt(lib.ops.verify(sig, m, pk))
          if (!accepted(r)) verdict.set(lib.id, `refuses node:crypto's signature (${describe(r)})`)
          else if (accepted(attempt(lib.ops.verify(sig, other, pk)))) verdict.set(lib.id, 'accepts the signature for another message')
          else if (accepted(attempt(lib.ops.verify(sig, m, flipped(pk, 0))))) verdict.set(lib.id, 'accepts the signature under another public key')
        }
        return verdict
      },
      prepare: (lib) => lib.ops.verify(sig, m, pk)
    })
  }

  cases.push({
    family: 'aead',
    op: 'xchacha20poly1305 keygen',
    check (libs) {
      const verdict = new Map()
      for (const lib of libs) {
        const made = [attempt(lib.ops.keygen()), attempt(lib.ops.keygen())]
        const bad = made.find((r) => !isBytes(r.value, 32))
        if (bad) { verdict.set(lib.id, `key is ${describe(bad)}, not 32 bytes`); continue }
        const [a, b] = made.map((r) => r.value)
        if (a.every((x) => x === 0)) { verdict.set(lib.id, 'key is all zero'); continue }
        if (equal(a, b)) { verdict.set(lib.id, 'two keys came out equal'); continue }
        // a key it made encrypts in every library and decrypts in the next
        libs.forEach((enc, i) => {
          const dec = libs[(i + 1) % libs.length]
          const c = attempt(enc.ops.encrypt(probe, n, a)).value
          if (!verdict.has(lib.id) && !equal(attempt(dec.ops.decrypt(c, n, a)).value, probe)) verdict.set(lib.id, `its key does not work from ${enc.contender} to ${dec.contender}`)
        })
      }
      return verdict
    },
    prepare: (lib) => lib.ops.keygen()
  })

  for (const size of config.sizes) {
    const m = fill(TAG.MSG, size)
    cases.push({
      family: 'aead',
      op: 'xchacha20poly1305 encrypt',
      size,
      async check (libs) {
        const verdict = new Map()
        const good = []
        for (const lib of libs) {
          const r = attempt(lib.ops.encrypt(m, n, k))
          if (!isBytes(r.value, size + 16)) verdict.set(lib.id, `ciphertext is ${describe(r)}, expected ${size + 16} bytes`)
          else if (await sha256(r.value) !== config.reference.ciphertexts[size]) verdict.set(lib.id, 'ciphertext differs from libsodium\'s (SHA-256 of it)')
          else good.push([lib, r.value])
        }
        // every library decrypts every other's (correct) ciphertext
        for (const [enc, c] of good) {
          for (const dec of libs) {
            if (!verdict.has(dec.id) && !equal(attempt(dec.ops.decrypt(c, n, k)).value, m)) verdict.set(dec.id, `does not decrypt ${enc.contender}'s ciphertext`)
          }
        }
        return verdict
      },
      prepare: (lib) => lib.ops.encrypt(m, n, k)
    })
  }

  for (const size of config.sizes) {
    const m = fill(TAG.MSG, size)
    let sealed = null
    cases.push({
      family: 'aead',
      op: 'xchacha20poly1305 decrypt',
      size,
      async check (libs) {
        const verdict = new Map()
        // the ciphertext every row decrypts: the first library's that equals libsodium's
        for (const lib of libs) {
          const c = attempt(lib.ops.encrypt(m, n, k)).value
          if (isBytes(c) && await sha256(c) === config.reference.ciphertexts[size]) { sealed = c; break }
        }
        if (!sealed) {
          for (const lib of libs) verdict.set(lib.id, 'no library made libsodium\'s ciphertext to decrypt')
          return verdict
        }
        const forgeries = [flipped(sealed, 0), flipped(sealed, sealed.length - 1), sealed.subarray(0, sealed.length - 1)]
        for (const lib of libs) {
          const r = attempt(lib.ops.decrypt(sealed, n, k))
          if (!equal(r.value, m)) { verdict.set(lib.id, `decrypts to ${describe(r)}, not the message`); continue }
          const taken = forgeries.map((f) => attempt(lib.ops.decrypt(f, n, k))).find((x) => !x.error && x.value !== null && x.value !== false)
          if (taken) verdict.set(lib.id, `accepts a forged ciphertext (${describe(taken)})`)
          else if (!attempt(lib.ops.decrypt(sealed, n, flipped(k, 0))).error) verdict.set(lib.id, 'decrypts under another key')
        }
        return verdict
      },
      prepare: (lib) => lib.ops.decrypt(sealed, n, k)
    })
  }
  for (const c of cases) c.label = c.size === undefined ? '' : sizeLabel(c.size)
  const only = config.filter ? new RegExp(config.filter, 'i') : null
  return only ? cases.filter((c) => only.test(c.label ? `${c.op} ${c.label}` : c.op)) : cases
}

function fromHex (s) {
  const b = new Uint8Array(s.length / 2)
  for (let i = 0; i < b.length; i++) b[i] = parseInt(s.substr(i * 2, 2), 16)
  return b
}

// ---- timing ----

// Benchmark.js in a browser times with Date (1 ms): its minTime keeps each sample ≥ 50 ms so that
// resolution costs under 1 %.
function time (fn, settings) {
  return new Promise((resolve) => {
    const bench = new Benchmark({
      ...settings,
      async: true,
      fn () { sink.value = fn() },
      onComplete () {
        resolve(bench.error
          ? { error: String(bench.error.message || bench.error) }
          : { hz: bench.hz, rme: bench.stats.rme, samples: bench.stats.sample.length })
      }
    })
    bench.run({ async: true })
  })
}

// An AEAD row of 100 KB or more allocates that much per call, so the browser's collector and
// fresh pages decide its time as much as the cipher: a collection falling in one 50 ms sample and
// not the next swung rounds from 0.5x to 3x. Longer samples (settings.big) average over several.
function settingsFor (c, settings) {
  const { big, ...rest } = settings
  return big && c.family === 'aead' && c.size >= 102400 ? { ...rest, ...big } : rest
}

// ---- the page ----

const $ = (id) => document.getElementById(id)
const state = { phase: 'loading', done: 0, total: 0, run: null }
window.__natriumBench = state

function log (text) {
  $('status').textContent = text
  console.log(`bench: ${text}`)
}

function render (run) {
  $('table').innerHTML = report.html(run)
  if (run.meta.finished) $('chart').innerHTML = report.svg(run)
}

async function browserName () {
  const brand = /(HeadlessChrome|Chrome|Chromium|Firefox|Version)\/([\d.]+)/.exec(navigator.userAgent)
  let name = brand ? `${brand[1] === 'Version' ? 'Safari' : brand[1]} ${brand[2]}` : navigator.userAgent
  try {
    // Chromium reduces the user agent to 156.0.0.0; the full version is a high-entropy hint
    const data = await navigator.userAgentData.getHighEntropyValues(['fullVersionList'])
    const b = data.fullVersionList.find((x) => /Chromium|Google Chrome/.test(x.brand))
    if (b) name = `${b.brand} ${b.version}${/Headless/.test(navigator.userAgent) ? ' (headless)' : ''}`
  } catch {}
  return name
}

async function main () {
  const config = await (await fetch('config.json', { cache: 'no-store' })).json()
  const q = new URLSearchParams(location.search)
  if (q.has('rounds')) config.rounds = Math.max(1, parseInt(q.get('rounds'), 10) || 1)
  if (q.has('filter')) config.filter = q.get('filter')
  await lsw.ready
  const meta = {
    ...config.meta,
    started: new Date().toISOString(),
    browser: await browserName(),
    userAgent: navigator.userAgent,
    hardwareConcurrency: navigator.hardwareConcurrency,
    rounds: config.rounds,
    filter: config.filter || null,
    settings: config.settings,
    natriumBackend: natrium.backend,
    versions: { ...config.meta.versions }
  }
  $('meta').textContent = report.headerLines(meta).join('\n')
  const cases = buildCases(config)
  const run = { meta, cases: cases.map((c) => ({ family: c.family, op: c.op, size: c.size ?? null, label: c.label, results: [] })) }
  state.run = run

  log('checking every answer')
  state.phase = 'checking'
  for (const [i, c] of cases.entries()) {
    let verdict
    try {
      verdict = await c.check(LIBS)
    } catch (err) {
      verdict = new Map(LIBS.map((l) => [l.id, `the check threw: ${err && err.message}`]))
    }
    run.cases[i].results = LIBS.map((lib) => {
      const why = verdict.get(lib.id)
      return why
        ? { lib: lib.id, contender: lib.contender, status: 'wrong', note: `WRONG ANSWER: ${why}`, rounds: [] }
        : { lib: lib.id, contender: lib.contender, status: 'ok', rounds: [] }
    })
  }
  render(run)

  // Rounds: every case in turn, its libraries in an order rotated per case and per round, so
  // none always runs first (or right after the slow one); a row's ops/sec is the median of its
  // rounds, and "factor faster" the median of the same round's ratios.
  state.phase = 'timing'
  state.total = config.rounds * run.cases.reduce((s, c) => s + c.results.filter((r) => r.status === 'ok').length, 0)
  const t0 = performance.now()
  for (let round = 0; round < config.rounds; round++) {
    for (const [i, c] of cases.entries()) {
      const rows = run.cases[i].results
      const order = rows.map((_, j) => rows[(j + round + i) % rows.length])
      for (const row of order) {
        if (row.status !== 'ok') continue
        const lib = LIBS.find((l) => l.id === row.lib)
        const left = state.done ? ((performance.now() - t0) / state.done) * (state.total - state.done) / 1000 : null
        log(`round ${round + 1}/${config.rounds} · ${c.op}${c.label ? ` ${c.label}` : ''} · ${row.contender}` +
          ` · ${state.done}/${state.total}${left === null ? '' : ` · about ${Math.ceil(left)} s left`}`)
        const r = await time(c.prepare(lib), settingsFor(c, config.settings))
        state.done++
        if (r.error) {
          row.status = 'error'
          row.note = `threw while timed: ${r.error}`
          continue
        }
        row.rounds.push(r)
        row.hz = median(row.rounds.map((x) => x.hz))
        row.rme = median(row.rounds.map((x) => x.rme))
      }
      report.ratios(run.cases[i])
      render(run)
    }
  }
  meta.duration = (performance.now() - t0) / 1000
  meta.finished = new Date().toISOString()
  render(run)
  const failed = run.cases.flatMap((c) => c.results).filter((r) => r.status !== 'ok').length
  log(`done in ${Math.round(meta.duration)} s${failed ? ` · ${failed} rows failed` : ''}`)
  state.phase = 'posting'
  try {
    const res = await fetch('results', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(run) })
    $('saved').textContent = res.ok ? await res.text() : `the server did not take the results (${res.status})`
  } catch (err) {
    $('saved').textContent = `could not send the results to the server: ${err.message}`
  }
  state.phase = 'done'
}

main().catch((err) => {
  state.phase = 'failed'
  state.error = String(err && err.stack ? err.stack : err)
  log(`failed: ${state.error}`)
})
