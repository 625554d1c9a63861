'use strict'
// mocha's spec reporter plus the closing line CI reads: "N passed, M failed".
const Mocha = require('mocha')
const { EVENT_RUN_END } = Mocha.Runner.constants

class Reporter extends Mocha.reporters.Spec {
  constructor (runner, options) {
    super(runner, options)
    runner.once(EVENT_RUN_END, () => {
      const { passes, failures } = runner.stats
      process.nextTick(() => console.log(`${passes} passed, ${failures} failed`))
    })
  }
}

module.exports = Reporter
