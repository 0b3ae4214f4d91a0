'use strict'
// Starts and stops local redis-server instances on loopback ports for the
// Redis example and test; reports why it cannot run when redis-server is missing.
const { spawn, spawnSync } = require('node:child_process')
const net = require('node:net')
const os = require('node:os')
const fs = require('node:fs')
const path = require('node:path')

function findRedisServer () {
  const found = spawnSync('sh', ['-c', 'command -v redis-server'], { encoding: 'utf8' })
  return found.status === 0 ? found.stdout.trim() : null
}

/** `{ bin }` when redis-server is installed, else `{ reason }` (`make prereqs` installs it). */
function ensureRedisServer () {
  const bin = findRedisServer()
  if (bin) return { bin }
  return { reason: 'redis-server is not installed (make prereqs installs it)' }
}

function freePort () {
  return new Promise((resolve, reject) => {
    const srv = net.createServer()
    srv.unref()
    srv.on('error', reject)
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address()
      srv.close(() => resolve(port))
    })
  })
}

function waitForPort (port, child, timeoutMs = 10_000) {
  const deadline = Date.now() + timeoutMs
  return new Promise((resolve, reject) => {
    const attempt = () => {
      if (child.exitCode !== null) return reject(new Error(`redis-server on port ${port} exited with ${child.exitCode}`))
      const sock = net.connect(port, '127.0.0.1')
      sock.once('connect', () => { sock.end(); resolve() })
      sock.once('error', () => {
        sock.destroy()
        if (Date.now() > deadline) reject(new Error(`redis-server on port ${port} did not start in ${timeoutMs} ms`))
        else setTimeout(attempt, 50)
      })
    }
    attempt()
  })
}

const running = new Set()
process.on('exit', () => {
  // Last resort (a crash or process.exit): never leave servers behind.
  for (const child of running) child.kill('SIGKILL')
})

/** Starts one redis-server with no persistence; resolves to `{ port, stop() }`. */
async function startServer (bin, name) {
  const port = await freePort()
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `longstraw-${name}-`))
  const child = spawn(bin, ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no',
    '--dir', dir, '--daemonize', 'no', '--loglevel', 'warning'], { stdio: ['ignore', 'ignore', 'inherit'] })
  running.add(child)
  const exited = new Promise((resolve) => child.once('exit', resolve))
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM')
      const timer = setTimeout(() => child.kill('SIGKILL'), 5000)
      await exited
      clearTimeout(timer)
    }
    running.delete(child)
    fs.rmSync(dir, { recursive: true, force: true })
  }
  try {
    await waitForPort(port, child)
  } catch (e) {
    await stop()
    throw e
  }
  return { name, port, stop }
}

/** Starts `count` servers named `${prefix}0..`; stops any already started if one fails. */
async function startServers (bin, count, prefix = 'redis-') {
  const servers = []
  try {
    for (let i = 0; i < count; i++) servers.push(await startServer(bin, `${prefix}${i}`))
  } catch (e) {
    await Promise.all(servers.map((s) => s.stop()))
    throw e
  }
  return servers
}

/** How many servers started here are still running. */
function runningCount () {
  return running.size
}

module.exports = { ensureRedisServer, startServers, runningCount }
