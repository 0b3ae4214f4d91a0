'use strict'
// Node driver: runs the cases through bindings/node, as Buffers and as strings.
const fs = require('node:fs')
const path = require('node:path')
const { Rendezvous, target } = require(path.join(__dirname, '../../bindings/node'))

// The node-wasm column runs this driver with LONGSTRAW_NODE_WASM=1: it must be the WebAssembly build
// that answers, never a native addon loaded in its place.
const expected = process.env.LONGSTRAW_EXPECT_TARGET
if (expected && target !== expected) {
  console.error(`driver.js: loaded the ${target} build, not ${expected}`)
  process.exit(1)
}

const CLASSES = {
  ERR_LONGSTRAW_INVALID_NODE_ID: 'invalid_node_id',
  ERR_LONGSTRAW_INVALID_WEIGHT: 'invalid_weight',
  ERR_LONGSTRAW_DUPLICATE_NODE: 'duplicate_node',
  ERR_LONGSTRAW_INVALID_DOMAIN: 'invalid_domain',
  ERR_LONGSTRAW_NO_ELIGIBLE_NODE: 'no_eligible',
  ERR_LONGSTRAW_INVALID_STRING: 'invalid_string',
  ERR_LONGSTRAW_HASH_COLLISION: 'hash_collision'
}
const errorClass = (e) => CLASSES[e.code] || `other:${e.code}`
const unhex = (f) => (f === '.' ? Buffer.alloc(0) : Buffer.from(f, 'hex'))
const hexid = (x) => Buffer.from(x).toString('hex') || '.'
const decoder = new TextDecoder('utf-8', { fatal: true })
function text (b) {
  try { return decoder.decode(b) } catch { return null }
}

function * readSets (file) {
  let cur = null
  for (const line of fs.readFileSync(file, 'utf8').split('\n')) {
    const [tag, ...rest] = line.split(' ')
    if (tag === 'S') cur = { no: rest[0], seed: BigInt(rest[1]), nodes: [], keys: [], lones: [] }
    else if (tag === 'N') cur.nodes.push([unhex(rest[0]), Number(rest[1]), rest[2] === '-' ? null : unhex(rest[2])])
    else if (tag === 'K') cur.keys.push([unhex(rest[0]), Number(rest[1])])
    else if (tag === 'L') cur.lones.push(String.fromCharCode(...rest[0].split(',').map((u) => parseInt(u, 16))))
    else if (tag === 'E') yield cur
  }
}

function run (out, form, set) {
  const convert = form === 'b' ? (b) => b : text
  const r = new Rendezvous([], { seed: set.seed })
  try {
    for (const [id, weight, domain] of set.nodes) {
      if (domain === null) r.add(convert(id), weight)
      else r.addInDomain(convert(id), weight, convert(domain))
    }
  } catch (e) {
    out.push(`${form} ${set.no} BUILD ${errorClass(e)}`)
    return
  }
  set.keys.forEach(([key, k], i) => {
    const given = convert(key)
    if (given === null) return
    try {
      const owner = hexid(r.owner(given))
      const top = r.topK(given, k).map(hexid).join(',') || '-'
      const distinct = r.topKDistinct(given, k).map(hexid).join(',') || '-'
      out.push(`${form} ${set.no} K${i} ${owner} ${top} ${distinct}`)
    } catch (e) {
      out.push(`${form} ${set.no} K${i} ERR ${errorClass(e)}`)
    }
  })
  if (form === 's') {
    set.lones.forEach((s, i) => {
      try {
        r.owner(s)
        out.push(`${form} ${set.no} L${i} accepted`)
      } catch (e) {
        out.push(`${form} ${set.no} L${i} ERR ${errorClass(e)}`)
      }
    })
  }
}

const out = []
for (const set of readSets(process.argv[2])) {
  run(out, 'b', set)
  if (set.nodes.every(([id, , d]) => text(id) !== null && (d === null || text(d) !== null))) run(out, 's', set)
}
process.stdout.write(out.join('\n') + '\n')
