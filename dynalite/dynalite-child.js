// dynalite as a child process of a JVM (the local runner, the tests): the same server as
// dynalite's cli.js, plus two duties the cli lacks.
// - It never outlives its parent. It exits when its stdin closes (the parent's end of the pipe
//   closes when the parent dies, kill -9 included) or when its parent process id changes (it was
//   re-parented), whichever comes first.
// - It answers only its parent, before dynalite sees a request: only a loopback Host (a web page
//   that rebinds its own name to 127.0.0.1 sends that name), no request from a web page (an
//   Origin header, a CORS preflight) and no CORS header in any answer, and with
//   --credential-file, only requests whose x-snowid-engine-credential header holds that file's
//   secret (the runner's SDK client adds it). Anything else gets 403 and dynalite never reads it.
//
//   node dynalite-child.js --install <folder with node_modules/dynalite> --port <n>
//        [--path <LevelDB folder; in memory when absent>] [--remove-when-orphaned <folder>]
//        [--credential-file <file holding the secret every request must show>]
//
// Ctrl-C in a terminal signals the whole process group; SIGINT is ignored here so that the
// parent decides when its engine stops (it sends SIGTERM).
'use strict'
const crypto = require('crypto')
const fs = require('fs')
const path = require('path')

const args = {}
for (let i = 2; i + 1 < process.argv.length; i += 2) {
  args[process.argv[i].replace(/^--/, '')] = process.argv[i + 1]
}
if (!args.install || !args.port) {
  console.error('usage: node dynalite-child.js --install <dir> --port <n> [--path <dir>] [--remove-when-orphaned <dir>]'
    + ' [--credential-file <file>]')
  process.exit(2)
}

const parent = process.ppid

function orphaned (why) {
  console.log('dynalite-child: parent ' + parent + ' is gone (' + why + '); exiting')
  if (args['remove-when-orphaned']) {
    // The parent could not remove its temporary folder itself (it was killed): do it for it.
    fs.rmSync(args['remove-when-orphaned'], { recursive: true, force: true })
  }
  process.exit(0)
}

process.stdin.on('end', () => orphaned('stdin closed'))
process.stdin.on('error', () => orphaned('stdin failed'))
process.stdin.resume()
setInterval(() => { if (process.ppid !== parent) orphaned('re-parented to ' + process.ppid) }, 200)
process.on('SIGINT', () => {})

const dynalite = require(path.join(path.resolve(args.install), 'node_modules', 'dynalite'))
const server = dynalite({ path: args.path, createTableMs: 0, deleteTableMs: 0, updateTableMs: 0 })

// Read once: the file is the parent's, in its private folder; a restarted engine reads it again.
const credential = args['credential-file'] ? Buffer.from(fs.readFileSync(args['credential-file'], 'utf8').trim()) : null
const CREDENTIAL_HEADER = 'x-snowid-engine-credential'
const LOOPBACK_HOST = /^(127\.0\.0\.1|localhost|\[::1\])(:[0-9]{1,5})?$/i

function refusal (req) {
  if (!LOOPBACK_HOST.test(req.headers.host || '')) return 'only a loopback Host is answered'
  if (req.headers.origin !== undefined || req.method === 'OPTIONS') return 'requests from web pages are refused (no CORS)'
  if (credential) {
    const shown = Buffer.from(String(req.headers[CREDENTIAL_HEADER] || ''))
    if (shown.length !== credential.length || !crypto.timingSafeEqual(shown, credential)) {
      return 'this engine answers only the process that started it (the ' + CREDENTIAL_HEADER + ' header is missing or wrong)'
    }
  }
  return null
}

const answer = server.listeners('request')[0] // dynalite's own handler
server.removeAllListeners('request')
server.on('request', (req, res) => {
  const refused = refusal(req)
  if (refused) {
    req.on('error', () => {}) // a client that drops its request is no reason to exit
    req.resume()
    const body = JSON.stringify({ __type: 'com.amazon.coral.service#AccessDeniedException', message: refused })
    res.writeHead(403, { 'Content-Type': 'application/x-amz-json-1.0', 'Content-Length': Buffer.byteLength(body), Connection: 'close' })
    return res.end(body)
  }
  const setHeader = res.setHeader
  res.setHeader = function (name, value) { // no CORS header, whatever dynalite would add
    return /^access-control-/i.test(name) ? this : setHeader.call(this, name, value)
  }
  answer(req, res)
})
server.on('error', (err) => {
  console.error('dynalite-child: ' + err.code + ': ' + err.message)
  process.exit(3)
})
server.listen(Number(args.port), '127.0.0.1', () => {
  console.log('dynalite-child: pid ' + process.pid + ' listening on 127.0.0.1:' + server.address().port
    + (args.path ? ' with its tables in ' + args.path : ' in memory'))
})
