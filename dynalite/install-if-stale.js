// Runs `npm ci` only when node_modules does not match package-lock.json, so that repeated
// Maven builds do not reinstall dynalite every time. Called by dynalite/pom.xml (generate-resources).
// Quiet when all is well: npm's output is shown only when it fails.
'use strict'
const fs = require('fs')
const path = require('path')
const { spawnSync } = require('child_process')

const dir = __dirname
const lock = fs.readFileSync(path.join(dir, 'package-lock.json'), 'utf8')
const stamp = path.join(dir, 'node_modules', '.snowid-installed-lock.json')
const cli = path.join(dir, 'node_modules', 'dynalite', 'cli.js')

if (!(fs.existsSync(cli) && fs.existsSync(stamp) && fs.readFileSync(stamp, 'utf8') === lock)) {
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm'
  const ci = spawnSync(npm, ['ci', '--no-audit', '--no-fund', '--no-progress'], { cwd: dir, encoding: 'utf8', shell: process.platform === 'win32' })
  if (ci.error || ci.status !== 0) {
    process.stderr.write((ci.stdout || '') + (ci.stderr || ''))
    console.error('npm ci in ' + dir + ' failed' + (ci.error ? ': ' + ci.error.message : ' with status ' + ci.status))
    process.exit(1)
  }
  fs.writeFileSync(stamp, lock)
}
