// dist-check: the installed `longstraw` npm package through `import`: the
// same addon as `require` gives, loaded from the platform package, placing
// every key of placement-v1.json on the recorded owner.
import test from 'node:test'
import assert from 'node:assert/strict'
import fs from 'node:fs'
import { createRequire } from 'node:module'
import longstraw, { Rendezvous, backend } from 'longstraw'

const require = createRequire(import.meta.url)
const platformPackage = process.env.LONGSTRAW_NODE_PLATFORM_PACKAGE

test('import and require share one addon, loaded from the platform package', () => {
  assert.equal(require('longstraw').Rendezvous, Rendezvous)
  assert.equal(longstraw.Rendezvous, Rendezvous)
  const addon = Object.keys(require.cache).filter((f) => f.endsWith('.node'))
  assert.equal(addon.length, 1, `addons loaded: ${addon}`)
  assert.ok(addon[0].includes(`/node_modules/${platformPackage}/`), `addon loaded from ${addon[0]}`)
  assert.match(backend(), /^(scalar|sse2|avx2|avx512|neon)$/)
})

test('placement-v1 vectors through import: the owner of every key', () => {
  const v = JSON.parse(fs.readFileSync(process.env.LONGSTRAW_VECTORS, 'utf8'))
  let checked = 0
  for (const c of v.cases) {
    const r = new Rendezvous(c.nodes.map((n) => Buffer.from(n.id_hex, 'hex')), {
      weights: c.nodes.map((n) => Buffer.from(n.weight_bits, 'hex').readDoubleBE(0)),
      seed: BigInt(c.seed)
    })
    for (const k of c.keys) {
      const key = Buffer.from(k.key_hex, 'hex')
      if (k.owner === null) {
        assert.throws(() => r.owner(key), { code: 'ERR_LONGSTRAW_NO_ELIGIBLE_NODE' })
      } else {
        const id = r.owner(key)
        const hex = (typeof id === 'string' ? Buffer.from(id, 'utf8') : id).toString('hex')
        assert.equal(hex, c.nodes[k.owner].id_hex, `${c.name} key ${k.key_hex}`)
      }
      checked++
    }
  }
  assert.ok(checked > 1000, `only ${checked} keys`)
})
