// The module the browser test's isolated page imports (run.mjs serves it, with an import map that points
// `longstraw` at the browser entry): the vector checks of vectors-check.mjs, against the vector files the
// server serves, then what differs in a page. Its `result` is what run.mjs compares with the counts in the
// files.
import * as longstraw from 'longstraw'
import { checkAll } from './vectors-check.mjs'

const vectors = async (name) => {
  const response = await fetch(new URL(`../../../tests/vectors/${name}`, import.meta.url))
  if (!response.ok) throw new Error(`${name}: HTTP ${response.status}`)
  return response.json()
}

/** The call's error code; throws if it returned. */
async function codeOf (what, call) {
  try {
    await call()
  } catch (e) {
    return e.code
  }
  throw new Error(`${what}: returned in a page, which has no file system`)
}

/**
 * A page has no file system and no environment: each file or variable a call needs is a coded error that
 * names it, never a crash or a set without its secret. Bounded loads work as in Node.
 */
async function checkPage ({ Rendezvous, BoundedLoad }) {
  const codes = {
    load: await codeOf('load', () => Rendezvous.load('/members.toml')),
    loadAsync: await codeOf('loadAsync', () => Rendezvous.loadAsync('members.toml')),
    save: await codeOf('save', () => new Rendezvous(['a']).save('/members.toml')),
    secretEnv: await codeOf('a secret.env', () => Rendezvous.loads('[secret]\nenv = "LONGSTRAW_SECRET"\n[[nodes]]\nid = "a"\n')),
    secretFile: await codeOf('a secret.file', () => Rendezvous.loads('[secret]\nfile = "secret.hex"\n[[nodes]]\nid = "a"\n'))
  }
  for (const [what, code] of Object.entries(codes)) {
    if (code !== 'ERR_LONGSTRAW_BAD_FILE') throw new Error(`${what} in a page: error code ${code}, expected ERR_LONGSTRAW_BAD_FILE`)
  }
  const nodes = ['api-1', 'api-2', 'api-3']
  const bounded = new BoundedLoad(nodes, { balanceFactor: 1.25 })
  const lease = bounded.acquire('user:42')
  if (lease.node !== new Rendezvous(nodes).owner('user:42') || bounded.inFlight !== 1) throw new Error('BoundedLoad: the first lease is not the owner')
  lease.release()
  if (bounded.inFlight !== 0) throw new Error('BoundedLoad: release left a request in flight')
  return { noFiles: Object.keys(codes).length }
}

export const result = {
  ...(await checkAll(longstraw, await vectors('placement-v1.json'), await vectors('keyed-v1.json'))),
  page: await checkPage(longstraw)
}
