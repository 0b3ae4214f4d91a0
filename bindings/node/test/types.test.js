'use strict'
// The typed layer (longstraw.d.ts) under `tsc --strict --noEmit`, with the pinned TypeScript of
// tools/typecheck: a user's program through the ESM entry (types/user.mts) and the CommonJS one
// (types/user.cts) type-checks; types/conformance.ts proves the typed layer matches what napi generates;
// and each mistake in types/wrong.mts is an error.
const { test } = require('node:test')
const assert = require('node:assert')
const { spawnSync } = require('node:child_process')
const fs = require('node:fs')
const path = require('node:path')

const TYPES = path.join(__dirname, 'types')
const TSC = process.env.LONGSTRAW_TSC || path.join(__dirname, '..', '..', '..', 'tools', 'typecheck', 'node_modules', '.bin', 'tsc')
const WRONG_LINES = [5, 6, 7, 8, 9, 10, 11, 12]

function tsc(project, t) {
  if (!fs.existsSync(TSC)) {
    t.skip(`tsc is not installed at ${TSC} (make test-node installs it with npm)`)
    return null
  }
  return spawnSync(TSC, ['-p', path.join(TYPES, project)], { encoding: 'utf8' })
}

test('a user program type-checks through the ESM and CommonJS entries, and the typed layer matches napi', (t) => {
  const done = tsc('tsconfig.json', t)
  if (done) assert.strictEqual(done.status, 0, done.stdout + done.stderr)
})

test('tsc --strict rejects each mistake in types/wrong.mts', (t) => {
  const done = tsc('tsconfig.wrong.json', t)
  if (!done) return
  const lines = [...done.stdout.matchAll(/wrong\.mts\((\d+),\d+\): error/g)].map((m) => Number(m[1]))
  assert.deepStrictEqual([...new Set(lines)], WRONG_LINES, done.stdout)
})
