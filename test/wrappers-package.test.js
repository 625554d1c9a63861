'use strict'
// The package as consumers load it: require('natrium') and import from 'natrium' (one instance,
// named exports), the subpath export for the sodium-native surface, the generated files being up
// to date, and the TypeScript declarations compiling against typed usage (tsc --noEmit).
const assert = require('assert')
const fs = require('fs')
const path = require('path')
const { outputs } = require('../scripts/generate')
const { backends, execNode } = require('./helpers')

const root = path.join(__dirname, '..')

function node (args, env = {}) {
  return execNode(args, { cwd: root, env: { ...process.env, ...env } })
}

describe('main API package', function () {
  this.timeout(120000)

  it('generated declarations and ESM entry points are up to date (node scripts/generate.js)', () => {
    for (const [file, text] of Object.entries(outputs())) {
      assert.strictEqual(fs.readFileSync(path.join(root, file), 'utf8'), text, `${file} is stale: run node scripts/generate.js`)
    }
  })

  it('the TypeScript declarations compile with typed usage (CommonJS, ESM, sodium-native surface)', () => {
    const tsc = require.resolve('typescript/bin/tsc')
    try {
      node([tsc, '-p', path.join('test', 'types')])
    } catch (err) {
      assert.fail(`tsc failed:\n${err.stdout}${err.stderr}`)
    }
  })

  it("require('natrium') is the main API, require('natrium/sodium-native') the other surface", () => {
    const out = node(['-e', `
      const a = require('natrium'), b = require('natrium/sodium-native')
      const pk = new Uint8Array(32), sk = new Uint8Array(32)
      console.log(JSON.stringify([a.crypto_box_keypair().keyType, b.crypto_box_keypair(pk, sk), pk.some((x) => x !== 0),
        a === require('./lib/index.js'), b === require('./lib/sodium-native.js')]))`])
    assert.deepStrictEqual(JSON.parse(out), ['x25519', null, true, true, true])
  })

  for (const { name: backend } of backends) {
    it(`import from 'natrium' [${backend}]: default and named exports, the same instance as require()`, () => {
      const out = node(['--input-type=module', '-e', `
        import sodium, { crypto_secretbox_easy, crypto_secretbox_open_easy, crypto_secretbox_KEYBYTES, ready, backend } from 'natrium'
        import sn, { crypto_secretbox_easy as rawEasy } from 'natrium/sodium-native'
        import { createRequire } from 'node:module'
        const require = createRequire(import.meta.url)
        await ready
        const key = new Uint8Array(crypto_secretbox_KEYBYTES), n = new Uint8Array(24)
        const c = crypto_secretbox_easy('hi', n, key)
        console.log(JSON.stringify({
          text: crypto_secretbox_open_easy(c, n, key, 'text'),
          same: sodium === require('natrium') && sodium.crypto_secretbox_easy === crypto_secretbox_easy,
          snSame: sn === require('natrium/sodium-native') && rawEasy === sn.crypto_secretbox_easy,
          backend,
          names: Object.keys(sodium).filter((k) => typeof sodium[k] === 'function').length
        }))`], { NATRIUM_BACKEND: backend })
      const r = JSON.parse(out)
      assert.deepStrictEqual(r, { text: 'hi', same: true, snSame: true, backend, names: r.names })
      assert.ok(r.names >= 290)
    })
  }

  it('every main-API export has a named ESM export and a declaration', () => {
    const api = require('..')
    const mjs = fs.readFileSync(path.join(root, 'lib', 'index.mjs'), 'utf8')
    const dts = fs.readFileSync(path.join(root, 'lib', 'index.d.ts'), 'utf8')
    for (const key of Object.keys(api)) {
      assert.ok(mjs.includes(`\n  ${key},`) || mjs.includes(`\n  ${key}\n`), `index.mjs lacks ${key}`)
      assert.ok(new RegExp(`export (function|const) ${key}\\b`).test(dts), `index.d.ts lacks ${key}`)
    }
  })

  it('package.json: exports map by runtime condition, types first, every file there', () => {
    const pkg = require('../package.json')
    // the file each runtime's conditions resolve to (first matching key wins, as in Node's resolver)
    const resolve = (target, conditions) => {
      if (typeof target === 'string') return target
      for (const [key, value] of Object.entries(target)) {
        if (key === 'default' || conditions.includes(key)) {
          const r = resolve(value, conditions)
          if (r) return r
        }
      }
      return null
    }
    const expected = {
      '.': {
        node_require: './lib/index.js',
        node_import: './lib/index.mjs',
        bun: './lib/index.js',
        deno: './lib/esm/browser.mjs',
        browser: './lib/esm/browser.mjs',
        workerd: './lib/esm/workerd.mjs',
        webworker: './lib/esm/browser.mjs',
        other: './lib/esm/browser.mjs'
      },
      './sodium-native': {
        node_require: './lib/sodium-native.js',
        node_import: './lib/sodium-native.mjs',
        bun: './lib/sodium-native.js',
        deno: './lib/esm/browser-sodium-native.mjs',
        browser: './lib/esm/browser-sodium-native.mjs',
        workerd: './lib/esm/workerd-sodium-native.mjs',
        webworker: './lib/esm/browser-sodium-native.mjs',
        other: './lib/esm/browser-sodium-native.mjs'
      }
    }
    const runtimes = {
      node_require: ['node', 'require'],
      node_import: ['node', 'import'],
      bun: ['bun', 'node', 'require'],
      deno: ['deno', 'node', 'import'],
      browser: ['browser', 'import', 'module'], // esbuild, webpack 5, Vite
      workerd: ['workerd', 'worker', 'browser', 'import'], // wrangler
      webworker: ['worker', 'browser', 'import'], // webpack 5 --target webworker: a Web Worker, not workerd
      other: ['import']
    }
    for (const [sub, want] of Object.entries(expected)) {
      for (const [runtime, conditions] of Object.entries(runtimes)) {
        assert.strictEqual(resolve(pkg.exports[sub], conditions), want[runtime], `${sub} ${runtime}`)
      }
    }
    assert.strictEqual(pkg.exports['./natrium.wasm'], './lib/natrium.wasm')
    assert.strictEqual(resolve(pkg.exports['./init'], ['import']), './lib/esm/init.mjs')
    // types first in every object that has them, and every file named exists
    const walk = (v, where) => {
      if (typeof v === 'string') { assert.ok(fs.existsSync(path.join(root, v)), `${where}: ${v}`); return }
      if ('types' in v) assert.strictEqual(Object.keys(v)[0], 'types', where)
      for (const [k, x] of Object.entries(v)) walk(x, `${where} ${k}`)
    }
    walk(pkg.exports, 'exports')
    assert.ok(!pkg.scripts.install && !pkg.scripts.postinstall)
  })
})
