'use strict'
// Several worker threads save different sets to one path while a reader reads it: every save
// succeeds, and every read sees one whole file some save wrote, never part of one. Worker threads
// share one process id, so this also covers saves that would share a per-process temporary name.
// Each save writes an exclusively created, unpredictable temporary file and renames it over the target.
const test = require('node:test')
const assert = require('node:assert/strict')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { Worker } = require('node:worker_threads')
const { Rendezvous } = require('..')

const WORKERS = 4
const SAVES = 150
const ADDON = path.join(__dirname, '..')

/** Worker `w`'s set: its own node count, so that each worker's file is different. */
const NODES_OF = (w) => Array.from({ length: 200 + 37 * w }, (_, i) => `worker-${w}-node-${i}`)

const WORKER_SOURCE = `
const { workerData, parentPort } = require('node:worker_threads')
const { Rendezvous } = require(workerData.addon)
const set = new Rendezvous(workerData.nodes, { seed: workerData.seed })
const failures = []
for (let i = 0; i < workerData.saves; i++) {
  try { set.save(workerData.file) } catch (e) { failures.push(e.message) }
}
Atomics.add(workerData.done, 0, 1)
parentPort.postMessage(failures)
`

test('concurrent saves from worker threads: all succeed, and a reader never sees a partial file', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'longstraw-concurrent-save-'))
  try {
    const file = path.join(dir, 'members.toml')
    // What each worker's save writes, from a save to a file of its own.
    const whole = new Set()
    for (let w = 0; w < WORKERS; w++) {
      const own = path.join(dir, `expected-${w}.toml`)
      new Rendezvous(NODES_OF(w), { seed: w }).save(own)
      whole.add(fs.readFileSync(own, 'utf8'))
    }
    assert.equal(whole.size, WORKERS)

    const done = new Int32Array(new SharedArrayBuffer(4))
    const results = []
    for (let w = 0; w < WORKERS; w++) {
      const worker = new Worker(WORKER_SOURCE, {
        eval: true,
        workerData: { addon: ADDON, nodes: NODES_OF(w), seed: w, saves: SAVES, file, done }
      })
      results.push(new Promise((resolve, reject) => {
        worker.once('message', resolve)
        worker.once('error', reject)
      }))
    }
    // Read on this thread until every worker is done (the messages wait in the queue meanwhile).
    let reads = 0
    const partial = []
    while (Atomics.load(done, 0) < WORKERS) {
      let text
      try {
        text = fs.readFileSync(file, 'utf8')
      } catch (e) {
        if (e.code === 'ENOENT') continue // before the first save
        throw e
      }
      reads++
      if (!whole.has(text)) partial.push(text.length)
    }
    const failures = (await Promise.all(results)).flat()
    assert.ok(reads > 0, 'the reader never saw the file while the workers saved')
    assert.deepEqual(failures.slice(0, 5), [], `${failures.length} of ${WORKERS * SAVES} saves failed`)
    assert.deepEqual(partial.slice(0, 5), [], `${partial.length} of ${reads} reads saw a partial file`)
    assert.ok(whole.has(fs.readFileSync(file, 'utf8')))
    // No temporary file is left behind.
    assert.deepEqual(fs.readdirSync(dir).filter((f) => !f.startsWith('expected-')), ['members.toml'])
  } finally {
    fs.rmSync(dir, { recursive: true, force: true })
  }
})
