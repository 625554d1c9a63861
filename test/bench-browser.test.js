'use strict'
// bench:browser's pieces that run without a browser: the page bundles for the browser (natrium
// through its "browser" export, no Node built-ins), the reference answers the page checks
// against, the per-round ratios and the table, and the CPU names. The timing itself is
// `npm run bench:browser` (CI runs its --quick smoke run); no timed test here.
const assert = require('assert')
const crypto = require('crypto')
const report = require('../bench/browser/report')
const { amdCore, parseArgs, bundle, reference } = require('../bench/browser/run')
const { fill, TAG } = require('../bench/inputs')

const esbuildHere = () => {
  try {
    require.resolve(`@esbuild/${process.platform}-${process.arch}/package.json`)
    return true
  } catch {
    return false
  }
}

function row (lib, contender, hzs) {
  return { lib, contender, status: 'ok', hz: report.median(hzs), rme: 1, rounds: hzs.map((hz) => ({ hz, rme: 1, samples: 5 })) }
}

describe('bench:browser', function () {
  it('bundles the page for the browser with natrium\'s browser entry and no Node built-ins', async function () {
    if (!esbuildHere()) this.skip()
    this.timeout(60000)
    const js = (await bundle()).toString('utf8')
    assert.match(js, /lib\/esm\/browser\.mjs/) // natrium resolved through package.json "exports", browser condition
    assert.match(js, /lib\/esm\/wasm-bytes\.mjs/)
    assert.match(js, /libsodium-wrappers\.mjs/)
    assert.doesNotMatch(js, /require\(["'](fs|path|crypto|buffer)["']\)/)
    assert.doesNotMatch(js, /lib\/loader\.js/)
  })

  it('gives the page node:crypto\'s Ed25519 answers and libsodium\'s XChaCha20-Poly1305 digests', async function () {
    const ref = await reference([10, 1024])
    const seed = fill(TAG.SEED, 32)
    const key = crypto.createPrivateKey({ key: Buffer.concat([Buffer.from('302e020100300506032b657004220420', 'hex'), seed]), format: 'der', type: 'pkcs8' })
    assert.strictEqual(ref.signatures[1024], crypto.sign(null, fill(TAG.MSG, 1024), key).toString('hex'))
    assert.strictEqual(ref.publicKey, Buffer.from(crypto.createPublicKey(key).export({ format: 'jwk' }).x, 'base64url').toString('hex'))
    // natrium's native backend, another build of the same libsodium, makes the same ciphertext
    const natrium = require('../lib/loader').load('native').binding
    const m = fill(TAG.MSG, 10)
    const c = new Uint8Array(26)
    natrium.crypto_aead_xchacha20poly1305_ietf_encrypt(c, m, null, null, fill(TAG.NONCE, 24), fill(TAG.KEY, 32))
    assert.strictEqual(ref.ciphertexts[10], crypto.createHash('sha256').update(c).digest('hex'))
  })

  it('takes "factor faster" as the median of the same round\'s ratios, with their range', function () {
    const kase = {
      op: 'ed25519 sign',
      label: '1 KB',
      results: [row('natrium-wasm', 'natrium wasm', [300, 100, 200]), row('libsodium-wrappers', 'libsodium-wrappers', [100, 100, 400]), row('noble', '@noble/*', [10, 20, 40])]
    }
    const f = report.ratios(kase)
    assert.deepStrictEqual(f['libsodium-wrappers'], { median: 1, min: 0.5, max: 3, rounds: 3 })
    assert.deepStrictEqual(f.noble, { median: 5, min: 5, max: 30, rounds: 3 })
  })

  it('writes the article\'s table, names wrong answers, and draws all three libraries', function () {
    const good = { family: 'ed25519', op: 'ed25519 verify', label: '10 B', results: [row('natrium-wasm', 'natrium wasm', [2000, 3000]), row('libsodium-wrappers', 'libsodium-wrappers', [1000, 1000]), row('noble', '@noble/*', [500, 1000])] }
    const bad = { family: 'aead', op: 'xchacha20poly1305 decrypt', label: '1 KB', results: [row('natrium-wasm', 'natrium wasm', [10]), { lib: 'libsodium-wrappers', contender: 'libsodium-wrappers', status: 'wrong', note: 'WRONG ANSWER: decrypts to Uint8Array(3), not the message', rounds: [] }, row('noble', '@noble/*', [5])] }
    for (const c of [good, bad]) report.ratios(c)
    const meta = { cpu: 'AMD EPYC (Zen 4, family 25 model 17)', cores: 2, browser: 'Chromium 156.0.8078.114 (headless)', started: '2026-12-02T00:00:00Z', natrium: { version: '0.1.0', commit: 'abc1234' }, libsodium: '1.0.22', mode: 'default', benchmarkjs: '2.1.4', rounds: 2, settings: { minSamples: 5, minTime: 0.05, maxTime: 0.3 }, versions: { natrium: '0.1.0' } }
    const md = report.markdown({ meta, cases: [good, bad] })
    assert.match(md, /AMD EPYC \(Zen 4, family 25 model 17\) \(2 cores\) · Chromium 156\.0\.8078\.114 \(headless\)/)
    assert.match(md, /\| operation \| size \| natrium \(wasm\) \| libsodium-wrappers \| @noble\/\* \| natrium ÷ libsodium-wrappers \| natrium ÷ @noble\/\* \|/)
    assert.match(md, /\| ed25519 verify \| 10 B \| 2,500 ±1\.0 % \| 1,000 ±1\.0 % \| 750 ±1\.0 % \| 2\.50× \(2\.00–3\.00\) \| 3\.50× \(3\.00–4\.00\) \|/)
    assert.match(md, /\| xchacha20poly1305 decrypt \| 1 KB \| 10\.0 ±1\.0 % \| WRONG ANSWER \| 5\.00 ±1\.0 % \| — \| 2\.00× \|/)
    assert.match(md, /- \*\*libsodium-wrappers, xchacha20poly1305 decrypt 1 KB: WRONG ANSWER: decrypts to Uint8Array\(3\), not the message\*\*/)
    const svg = report.svg({ meta, cases: [good, bad] })
    assert.match(svg, /^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"/)
    for (const name of ['natrium wasm', 'libsodium-wrappers', '@noble/\\*']) assert.match(svg, new RegExp(`class="legend">${name}<`))
    assert.strictEqual((svg.match(/fill="#[0-9a-f]{6}"><title>/g) || []).length, 5) // five timed bars
  })

  it('names AMD cores by family and model, and reads its options', function () {
    assert.strictEqual(amdCore(25, 17), 'Zen 4') // EPYC 9004 (Genoa)
    assert.strictEqual(amdCore(25, 1), 'Zen 3') // EPYC 7003 (Milan)
    assert.strictEqual(amdCore(26, 2), 'Zen 5')
    assert.strictEqual(amdCore(23, 49), 'Zen 2')
    assert.strictEqual(amdCore(6, 85), null)
    assert.deepStrictEqual(parseArgs(['--quick']).rounds, 1)
    assert.deepStrictEqual(parseArgs(['--rounds', '5', '--filter', 'verify']), { quick: false, serve: false, rounds: 5, filter: 'verify', port: 0, chromium: parseArgs([]).chromium, mode: 'default' })
  })
})
