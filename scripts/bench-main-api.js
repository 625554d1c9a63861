#!/usr/bin/env node
'use strict'
// Side-by-side numbers for the main API (issue 4's bars) and for the allocation strategies behind
// it, all in one process. Each round runs every contender of a group for ~ms of CPU time, in turn;
// the report gives the median ops/s and the median of the per-round ratios to the group's first
// contender, which holds up better than raw throughput on a busy machine.
//   node scripts/bench-main-api.js [rounds] [ms]
const crypto = require('crypto')
const lsw = require('libsodium-wrappers-sumo')
const natrium = require('..')
const sn = require('../lib/sodium-native')

const rounds = Number(process.argv[2]) || 15
const ms = Number(process.argv[3]) || 100

let sink = 0
const cpu = () => { const u = process.cpuUsage(); return (u.user + u.system) / 1e6 }
function run (fn) {
  let n = 0
  const t0 = cpu()
  let t
  do {
    for (let i = 0; i < 200; i++) { const r = fn(); sink ^= r ? r.length | 0 : 0 }
    n += 200
    t = cpu()
  } while (t - t0 < ms / 1000)
  return n / (t - t0)
}
const median = (a) => a.slice().sort((x, y) => x - y)[a.length >> 1]

function group (title, contenders) {
  const names = Object.keys(contenders)
  // a long warm-up: V8 tiers libsodium-wrappers' wasm up to optimised code in the background,
  // which takes a while on a busy machine (measured before it, libsodium-wrappers looks slower)
  for (let i = 0; i < 10; i++) for (const k of names) run(contenders[k])
  const ops = {}
  const ratios = {}
  for (let r = 0; r < rounds; r++) {
    const round = {}
    for (const k of names) (ops[k] = ops[k] || []).push(round[k] = run(contenders[k]))
    for (const k of names) (ratios[k] = ratios[k] || []).push(round[k] / round[names[0]])
  }
  console.log(`\n${title}`)
  console.log('| contender | ops/s (median) | × first |\n| --- | ---: | ---: |')
  for (const k of names) console.log(`| ${k} | ${Math.round(median(ops[k])).toLocaleString('en')} | ${median(ratios[k]).toFixed(2)} |`)
}

lsw.ready.then(() => {
  console.log(`natrium backend: ${natrium.backend}; Node ${process.version}; ${rounds} rounds of ${ms} ms CPU per contender`)
  const m = new Uint8Array(10).fill(7)
  const key = natrium.crypto_aead_xchacha20poly1305_ietf_keygen()
  const npub = natrium.randombytes_buf(24)
  const out = new Uint8Array(m.length + 16)

  const aead = (when) => group(`xchacha20poly1305_ietf_encrypt, 10 B, a new result each call${when}`, {
    'libsodium-wrappers-sumo': () => lsw.crypto_aead_xchacha20poly1305_ietf_encrypt(m, null, null, npub, key),
    natrium: () => natrium.crypto_aead_xchacha20poly1305_ietf_encrypt(m, null, null, npub, key),
    'libsodium-wrappers-sumo, randombytes_buf nonce each call': () => lsw.crypto_aead_xchacha20poly1305_ietf_encrypt(m, null, null, lsw.randombytes_buf(24), key),
    'natrium, randombytes_buf nonce each call': () => natrium.crypto_aead_xchacha20poly1305_ietf_encrypt(m, null, null, natrium.randombytes_buf(24), key),
    'natrium/sodium-native (caller reuses one output)': () => { sn.crypto_aead_xchacha20poly1305_ietf_encrypt(out, m, null, null, npub, key); return out }
  })
  aead('')

  group('randombytes_buf(24)', {
    'libsodium-wrappers-sumo': () => lsw.randombytes_buf(24),
    natrium: () => natrium.randombytes_buf(24),
    'node:crypto randomBytes': () => crypto.randomBytes(24)
  })

  const seed = natrium.randombytes_buf(32)
  const kp = natrium.crypto_sign_seed_keypair(seed)
  const edKey = crypto.createPrivateKey({ key: Buffer.concat([Buffer.from('302e020100300506032b657004220420', 'hex'), seed]), format: 'der', type: 'pkcs8' })
  if (!crypto.sign(null, m, edKey).equals(Buffer.from(natrium.crypto_sign_detached(m, kp.privateKey)))) throw new Error('ed25519 mismatch')
  group('ed25519 sign, 10 B', {
    'libsodium-wrappers-sumo': () => lsw.crypto_sign_detached(m, kp.privateKey),
    'node:crypto sign (KeyObject)': () => crypto.sign(null, m, edKey),
    natrium: () => natrium.crypto_sign_detached(m, kp.privateKey)
  })

  const a = natrium.crypto_box_keypair()
  const b = natrium.crypto_box_keypair()
  const der = (prefix, k) => Buffer.concat([Buffer.from(prefix, 'hex'), k])
  const aKey = crypto.createPrivateKey({ key: der('302e020100300506032b656e04220420', a.privateKey), format: 'der', type: 'pkcs8' })
  const bPub = crypto.createPublicKey({ key: der('302a300506032b656e032100', b.publicKey), format: 'der', type: 'spki' })
  if (!crypto.diffieHellman({ privateKey: aKey, publicKey: bPub }).equals(Buffer.from(natrium.crypto_scalarmult(a.privateKey, b.publicKey)))) throw new Error('x25519 mismatch')
  group('x25519 shared secret', {
    'node:crypto diffieHellman (KeyObjects)': () => crypto.diffieHellman({ privateKey: aKey, publicKey: bPub }),
    'libsodium-wrappers-sumo': () => lsw.crypto_scalarmult(a.privateKey, b.publicKey),
    natrium: () => natrium.crypto_scalarmult(a.privateKey, b.publicKey)
  })

  // The allocation strategies, on the raw binding (xchacha20poly1305, 10 B)
  if (natrium.backend === 'native') {
    const raw = require('../lib/loader').load('native').binding.crypto_aead_xchacha20poly1305_ietf_encrypt
    const n = m.length + 16
    const scratch = new Uint8Array(new ArrayBuffer(64), 0, n)
    let slab = new ArrayBuffer(1 << 16)
    let off = 0
    group('allocation of a 26-byte result (raw binding, same call)', {
      'new Uint8Array(n), written by C': () => { const c = new Uint8Array(n); raw(c, m, null, null, npub, key); return c },
      'new Uint8Array(new ArrayBuffer(n))': () => { const c = new Uint8Array(new ArrayBuffer(n)); raw(c, m, null, null, npub, key); return c },
      'scratch view, then new Uint8Array(view) (natrium)': () => { raw(scratch, m, null, null, npub, key); return new Uint8Array(scratch) },
      'slab views (shared ArrayBuffer: rejected)': () => {
        if (off + n > slab.byteLength) { slab = new ArrayBuffer(1 << 16); off = 0 }
        const c = new Uint8Array(slab, off, n)
        off += n
        raw(c, m, null, null, npub, key)
        return c
      },
      'one reused output (no new result: upper bound)': () => { raw(out, m, null, null, npub, key); return out }
    })
  }
  // once more, after many other natrium functions ran through the shared wrapper code
  aead(', after the other groups')
  if (sink === 0.5) console.log(sink)
})
