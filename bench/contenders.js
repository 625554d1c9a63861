'use strict'
// Builds the contenders of a case. A contender is
//   { name, lib, variant?, pkg?, skip?, setup: async () => fn, defer?, out? }
// setup() imports keys and prepares inputs once, outside the timed loop, and returns the timed
// function; fn() returns its result (it goes to the sink, and the first result to the check).
// defer: fn returns a Promise (awaited per call). out(result) turns the result into what the
// case checks (bytes, a boolean, or a normalised key pair), copying buffers that get reused.
//
// Output policy, so every row does equal work and says which work it does:
// - "natrium native" / "natrium wasm" and sodium-native: the raw surface, output buffers
//   allocated once in setup and reused (outputs first, sodium-native's convention);
// - "natrium native (alloc)" / "natrium wasm (alloc)": the same call with a new Uint8Array per
//   call, the policy of node:crypto, libsodium-wrappers, noble, tweetnacl and hash-wasm.

class Builder {
  constructor (libs, wanted) {
    this.libs = libs
    this.wanted = wanted
  }

  // A library that --only leaves out gives no row at all; a missing one gives a skipped row.
  lib (id, key, name, make, extra = {}) {
    if (!this.wanted(id)) return []
    const mod = this.libs[key]
    const base = { name, lib: id, pkg: key, ...extra }
    if (!mod) return [{ ...base, absent: true, skip: `${name}: ${this.libs.notes[key] || 'not loaded'}` }]
    return [{ ...base, setup: () => make(mod) }]
  }

  // A library that has the primitive but not this operation, or lacks the primitive.
  none (id, name, why) {
    if (!this.wanted(id)) return []
    return [{ name, lib: id, skip: why }]
  }

  // natrium (both backends, reused and allocating outputs) and sodium-native, calling one raw
  // function by its libsodium name. outs: output lengths; call(f, ...outputs) makes the call.
  // The result is the output (or the outputs as an array), or the call's own answer when there
  // is no output (verify). sodiumNative: false when sodium-native calls it differently.
  raw (fnName, { outs = [], call, out, sodiumNative = true, alloc = true }) {
    const list = []
    for (const backend of ['native', 'wasm']) {
      const id = `natrium-${backend}`
      if (!this.wanted(id)) continue
      const binding = this.libs[id]
      const name = `natrium ${backend}`
      if (!binding) {
        list.push({ name, lib: id, variant: 'reuse', absent: true, skip: `${name}: ${this.libs.notes[id] || 'not loaded'}` })
        continue
      }
      if (typeof binding[fnName] !== 'function') {
        list.push({ name, lib: id, variant: 'reuse', skip: `${name}: ${fnName} not in this build` })
        continue
      }
      list.push({ name, lib: id, variant: 'reuse', out, setup: () => rawFn(binding[fnName], outs, call, false) })
      if (alloc && outs.length) {
        list.push({ name: `${name} (alloc)`, lib: id, variant: 'alloc', out, setup: () => rawFn(binding[fnName], outs, call, true) })
      }
    }
    if (sodiumNative) {
      list.push(...this.lib('sodium-native', 'sodium-native', 'sodium-native', (sn) => {
        if (typeof sn[fnName] !== 'function') throw new Skip(`sodium-native has no ${fnName}`)
        return rawFn(sn[fnName], outs, call, false)
      }, { variant: 'reuse', out }))
    }
    return list
  }

  node (make, extra) { return this.lib('node', 'node', 'node:crypto', make, extra) }
  sodiumNative (make, extra) { return this.lib('sodium-native', 'sodium-native', 'sodium-native', make, { variant: 'reuse', ...extra }) }

  // libsodium-wrappers when it has the function, else its -sumo build (same code, more symbols).
  lsw (fnName, make, extra) {
    if (!this.wanted('libsodium-wrappers')) return []
    const std = this.libs['libsodium-wrappers']
    const key = std && typeof std[fnName] === 'function' ? 'libsodium-wrappers' : 'libsodium-wrappers-sumo'
    const mod = this.libs[key]
    if (mod && typeof mod[fnName] !== 'function') {
      return this.none('libsodium-wrappers', 'libsodium-wrappers', `libsodium-wrappers(-sumo) has no ${fnName}`)
    }
    return this.lib('libsodium-wrappers', key, key, (m) => make(m[fnName], m), extra)
  }

  noble (pkg, make, extra) { return this.lib('noble', pkg, pkg, make, extra) }
  tweetnacl (make, extra) { return this.lib('tweetnacl', 'tweetnacl', 'tweetnacl', make, extra) }
  scryptJs (make, extra) { return this.lib('scrypt-js', 'scrypt-js', 'scrypt-js', make, extra) }
  hashWasm (make, extra) { return this.lib('hash-wasm', 'hash-wasm', 'hash-wasm', make, extra) }
  argon2 (make, extra) { return this.lib('argon2', 'argon2', 'argon2', make, extra) }
}

// Thrown by a setup when the library turns out to lack the operation: a skip, not an error.
class Skip extends Error {}

function rawFn (f, outs, call, alloc) {
  if (outs.length === 0) return () => call(f)
  if (outs.length === 1) {
    const n = outs[0]
    if (alloc) return () => { const a = new Uint8Array(n); call(f, a); return a }
    const a = new Uint8Array(n)
    return () => { call(f, a); return a }
  }
  if (outs.length === 2) {
    const [n0, n1] = outs
    if (alloc) return () => { const a = new Uint8Array(n0); const b = new Uint8Array(n1); call(f, a, b); return [a, b] }
    const a = new Uint8Array(n0)
    const b = new Uint8Array(n1)
    const both = [a, b]
    return () => { call(f, a, b); return both }
  }
  throw new Error('raw(): at most two outputs')
}

module.exports = { Builder, Skip }
