// dynalite as a child process of a JVM (the local runner, the tests): the same server as
// dynalite's cli.js, plus one duty the cli lacks: it never outlives its parent. It exits when
// its stdin closes (the parent's end of the pipe closes when the parent dies, kill -9
// included) or when its parent process id changes (it was re-parented), whichever comes first.
//
//   node dynalite-child.js --install <folder with node_modules/dynalite> --port <n>
//        [--path <LevelDB folder; in memory when absent>] [--remove-when-orphaned <folder>]
//
// Ctrl-C in a terminal signals the whole process group; SIGINT is ignored here so that the
// parent decides when its engine stops (it sends SIGTERM).
'use strict'
const fs = require('fs')
const path = require('path')

const args = {}
for (let i = 2; i + 1 < process.argv.length; i += 2) {
  args[process.argv[i].replace(/^--/, '')] = process.argv[i + 1]
}
if (!args.install || !args.port) {
  console.error('usage: node dynalite-child.js --install <dir> --port <n> [--path <dir>] [--remove-when-orphaned <dir>]')
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
server.on('error', (err) => {
  console.error('dynalite-child: ' + err.code + ': ' + err.message)
  process.exit(3)
})
server.listen(Number(args.port), '127.0.0.1', () => {
  console.log('dynalite-child: pid ' + process.pid + ' listening on 127.0.0.1:' + server.address().port
    + (args.path ? ' with its tables in ' + args.path : ' in memory'))
})
