// `import ... from 'longstraw/edge'` in Node: the same instance as require('longstraw/edge') (edge.js).
import { createRequire } from 'node:module'

const require = createRequire(import.meta.url)
const binding = require('./edge.js')

export const { Rendezvous, Snapshot, backend, PLACEMENT, target } = binding
export const { BoundedLoad, Lease } = binding
export default binding
