// Runs `npm ci` only when node_modules does not match package-lock.json, so that repeated
// Maven builds do not reinstall dynalite every time. Called by dynalite/pom.xml (generate-resources).
'use strict'
const fs = require('fs')
const path = require('path')
const { execSync } = require('child_process')

const dir = __dirname
const lock = fs.readFileSync(path.join(dir, 'package-lock.json'), 'utf8')
const stamp = path.join(dir, 'node_modules', '.snowid-installed-lock.json')
const cli = path.join(dir, 'node_modules', 'dynalite', 'cli.js')

if (fs.existsSync(cli) && fs.existsSync(stamp) && fs.readFileSync(stamp, 'utf8') === lock) {
  console.log('dynalite is up to date in ' + path.join(dir, 'node_modules'))
} else {
  execSync('npm ci --no-audit --no-fund', { cwd: dir, stdio: 'inherit' })
  fs.writeFileSync(stamp, lock)
}
