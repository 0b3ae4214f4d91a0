// Mistakes the typed layer must catch: test/types.test.js expects a tsc error on each marked line.
import { Rendezvous } from 'longstraw'

const r = new Rendezvous(['cache-a', 'cache-b'])
const wrongType: Buffer = r.owner('user:42') // error: string ids come back as strings
r.add(Buffer.from('cache-c')) // error: a Rendezvous<string> takes string ids
r.owner(42) // error: a key is a string, Buffer or Uint8Array
const bad = r.topK('user:42') // error: k is required

export const used = [wrongType, bad]
