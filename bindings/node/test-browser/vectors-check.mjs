// The checks of test/vectors.test.js and test/keyed.test.js, written for any JavaScript host: Uint8Array and
// DataView instead of Buffer, thrown Errors instead of node:assert. The browser page runs them against the
// browser entry, and run.mjs runs them in Node against the package first, so both report the same counts.
//
// Expected values come from the frozen vector files only (tests/vectors/placement-v1.json, keyed-v1.json).

const encoder = new TextEncoder()
const strict = new TextDecoder('utf-8', { fatal: true })

export function hexToBytes (hex) {
  if (hex.length % 2 !== 0) throw new Error(`odd hex length ${hex.length}`)
  const out = new Uint8Array(hex.length / 2)
  for (let i = 0; i < out.length; i++) out[i] = parseInt(hex.slice(2 * i, 2 * i + 2), 16)
  return out
}

export function bytesToHex (bytes) {
  let s = ''
  for (const b of bytes) s += b.toString(16).padStart(2, '0')
  return s
}

/** An id as the set returns it (a string when its bytes are UTF-8, else bytes) as hex. */
export const idHex = (id) => bytesToHex(typeof id === 'string' ? encoder.encode(id) : id)
const weightOf = (bits) => new DataView(hexToBytes(bits).buffer).getFloat64(0, false)

function fail (where, what, got, want) {
  throw new Error(`${where}: ${what}: got ${JSON.stringify(got)}, the vector file says ${JSON.stringify(want)}`)
}
function same (where, what, got, want) {
  if (JSON.stringify(got) !== JSON.stringify(want)) fail(where, what, got, want)
}
function throwsCode (where, what, call, code) {
  try {
    call()
  } catch (e) {
    if (e && e.code === code) return
    throw new Error(`${where}: ${what}: threw ${e && e.code} (${e && e.message}), expected ${code}`)
  }
  throw new Error(`${where}: ${what}: returned, expected an error ${code}`)
}

function packed (keys) {
  const parts = keys.map((k) => hexToBytes(k.key_hex))
  const offsets = new Uint32Array(parts.length + 1)
  parts.forEach((p, i) => { offsets[i + 1] = offsets[i] + p.length })
  const bytes = new Uint8Array(offsets[parts.length])
  parts.forEach((p, i) => bytes.set(p, offsets[i]))
  return { bytes, offsets }
}

/**
 * placement-v1: owner, topK, rank, ownerIndex of every key of every case (and the key as a string when
 * its bytes are UTF-8); ownerIndices, owners, ownerIndicesAsync and ownersAsync (these two run on the thread
 * pool: in a browser, the Web Workers; left out with { async: false }, for the build without threads) per
 * case. Returns { cases, keys }.
 */
export async function checkPlacement ({ Rendezvous }, vectors, { async = true } = {}) {
  if (vectors.placement !== 1 || !(vectors.cases.length > 0)) throw new Error('placement-v1: unexpected file shape')
  let keys = 0
  for (const c of vectors.cases) {
    const ids = c.nodes.map((n) => hexToBytes(n.id_hex))
    const r = new Rendezvous(ids, { weights: c.nodes.map((n) => weightOf(n.weight_bits)), seed: BigInt(c.seed) })
    const snap = r.snapshot()
    same(c.name, 'size', snap.size, c.nodes.length)
    same(c.name, 'seed', String(snap.seed), String(BigInt(c.seed)))
    const want = (i) => c.nodes[i].id_hex
    for (const k of c.keys) {
      const key = hexToBytes(k.key_hex)
      const where = `${c.name} key ${k.key_hex}`
      if (k.owner === null) {
        throwsCode(where, 'owner', () => r.owner(key), 'ERR_LONGSTRAW_NO_ELIGIBLE_NODE')
        same(where, 'topK', r.topK(key, c.depth), [])
        same(where, 'rank', r.rank(key), [])
      } else {
        same(where, 'owner', idHex(r.owner(key)), want(k.owner))
        same(where, 'ownerIndex', snap.ownerIndex(key), k.owner)
        same(where, 'topK', r.topK(key, c.depth).map(idHex), k.ranked.map(want))
        const full = r.rank(key).map(idHex)
        same(where, 'rank', full.slice(0, k.ranked.length), k.ranked.map(want))
        same(where, 'rank length', full.length, snap.eligible)
        let text = null
        try { text = strict.decode(key) } catch {}
        if (text !== null && bytesToHex(encoder.encode(text)) === k.key_hex) {
          same(where, 'owner of the key as a string', idHex(r.owner(text)), want(k.owner))
        }
      }
      keys++
    }
    const { bytes, offsets } = packed(c.keys)
    if (c.keys.some((k) => k.owner === null)) {
      throwsCode(c.name, 'ownerIndices', () => snap.ownerIndices(bytes, offsets), 'ERR_LONGSTRAW_NO_ELIGIBLE_NODE')
      continue
    }
    const expected = c.keys.map((k) => k.owner)
    same(c.name, 'ownerIndices', [...snap.ownerIndices(bytes, offsets)], expected)
    const out = new Uint32Array(c.keys.length)
    if (snap.ownerIndices(bytes, offsets, out) !== out) throw new Error(`${c.name}: ownerIndices(out) returned another array`)
    same(c.name, 'ownerIndices into out', [...out], expected)
    same(c.name, 'owners', r.owners(c.keys.map((k) => hexToBytes(k.key_hex))).map(idHex), expected.map(want))
    if (!async) continue
    same(c.name, 'ownerIndicesAsync', [...(await snap.ownerIndicesAsync(bytes, offsets))], expected)
    same(c.name, 'ownersAsync', (await r.ownersAsync(c.keys.map((k) => hexToBytes(k.key_hex)))).map(idHex), expected.map(want))
  }
  return { cases: vectors.cases.length, keys }
}

/** keyed-v1 in every mode: owner, topK and topKDistinct of every key. Returns { cases, keys }. */
export function checkKeyed ({ Rendezvous }, vectors) {
  if (vectors.placement !== 'keyed-v1') throw new Error('keyed-v1: unexpected file shape')
  let keys = 0
  for (const c of vectors.cases) {
    const ids = c.nodes.map((n) => hexToBytes(n.id_hex))
    const options = {
      weights: c.nodes.map((n) => weightOf(n.weight_bits)),
      domains: c.nodes.map((n) => (n.domain_hex === null ? null : hexToBytes(n.domain_hex))),
      secret: hexToBytes(c.secret_hex)
    }
    const placer = c.mode === 'flat'
      ? new Rendezvous(ids, options)
      : c.mode === 'table'
        ? Rendezvous.table(ids, { ...options, bits: c.bits, replicas: c.depth })
        : Rendezvous.skeleton(ids, { ...options, fanoutBits: c.fanout_bits, levels: c.levels })
    same(c.name, 'isKeyed', placer.isKeyed, true)
    const hexOf = (list) => list.map((i) => c.nodes[i].id_hex)
    for (const k of c.keys) {
      const key = hexToBytes(k.key_hex)
      const where = `${c.name} key ${k.key_hex.slice(0, 32)}`
      if (k.owner === null) throwsCode(where, 'owner', () => placer.owner(key), 'ERR_LONGSTRAW_NO_ELIGIBLE_NODE')
      else same(where, 'owner', idHex(placer.owner(key)), c.nodes[k.owner].id_hex)
      same(where, 'topK', placer.topK(key, c.depth).map(idHex), hexOf(k.ranked))
      same(where, 'topKDistinct', placer.topKDistinct(key, c.k).map(idHex), hexOf(k.distinct))
      keys++
    }
  }
  return { cases: vectors.cases.length, keys }
}

/** A TOML float that reads back as exactly `w` (JavaScript's shortest round-trip form). */
function tomlFloat (w) {
  const s = String(w)
  return /[.eE]/.test(s) ? s : `${s}.0`
}

/**
 * Membership from a string and from bytes (Rendezvous.loads): every placement-v1 case with finite weights,
 * written as a membership file's content, loads into a set that places every key as the vector says.
 * Returns { cases, keys }.
 */
export function checkMembershipText ({ Rendezvous }, vectors) {
  let cases = 0
  let keys = 0
  for (const c of vectors.cases) {
    const weights = c.nodes.map((n) => weightOf(n.weight_bits))
    if (!weights.every(Number.isFinite) || c.keys.some((k) => k.owner === null)) continue
    const text = [`seed = "${BigInt(c.seed)}"`, 'placement = 1', 'mode = "flat"', '']
    c.nodes.forEach((n, i) => text.push('[[nodes]]', `id_hex = "${n.id_hex}"`, `weight = ${tomlFloat(weights[i])}`, ''))
    const content = text.join('\n')
    const fromText = Rendezvous.loads(content)
    const fromBytes = Rendezvous.loads(encoder.encode(content))
    for (const k of c.keys) {
      const key = hexToBytes(k.key_hex)
      const want = c.nodes[k.owner].id_hex
      same(`${c.name} key ${k.key_hex}`, 'owner of loads(string)', idHex(fromText.owner(key)), want)
      same(`${c.name} key ${k.key_hex}`, 'owner of loads(bytes)', idHex(fromBytes.owner(key)), want)
      keys++
    }
    cases++
  }
  if (cases === 0) throw new Error('membership text: no case was checked')
  return { cases, keys }
}

/**
 * An async table build (on the thread pool: in a browser, the Web Workers) places every key as the same
 * table built synchronously. Returns { keys }.
 */
export async function checkAsyncTable ({ Rendezvous }) {
  const nodes = Array.from({ length: 24 }, (_, i) => `cache-${i}`)
  const options = { bits: 10, replicas: 3, seed: 7n }
  const built = await Rendezvous.tableAsync(nodes, options)
  const sync = Rendezvous.table(nodes, options)
  const keys = Array.from({ length: 2000 }, (_, i) => `user:${i}`)
  same('tableAsync', 'mode', built.mode, 'table')
  same('tableAsync', 'owners', built.owners(keys), sync.owners(keys))
  same('tableAsync', 'topK', keys.slice(0, 100).map((k) => built.topK(k, 3)), keys.slice(0, 100).map((k) => sync.topK(k, 3)))
  return { keys: keys.length }
}

/** Every check, with the counts the page prints. */
export async function checkAll (lib, placement, keyed) {
  return {
    target: lib.target,
    backend: lib.backend(),
    placement: await checkPlacement(lib, placement),
    keyed: checkKeyed(lib, keyed),
    membershipText: checkMembershipText(lib, placement),
    asyncTable: await checkAsyncTable(lib)
  }
}
