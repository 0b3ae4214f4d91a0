// ESM entry point: the same addon instance as the CommonJS entry (longstraw.js),
// so classes and instances are shared between `import` and `require`.
import { createRequire } from 'node:module'

const require = createRequire(import.meta.url)
const binding = require('./longstraw.js')

export const { Rendezvous, Snapshot, backend, PLACEMENT, target } = binding
export const { BoundedLoad, Lease } = binding
export default binding
