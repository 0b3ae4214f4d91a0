// Mistakes the typed layer must catch: test/types.test.js expects a tsc error on each marked line.
import { Rendezvous } from 'longstraw'

const r = new Rendezvous(['cache-a', 'cache-b'])
const wrongType: Buffer = r.owner('user:42') // error: string ids come back as strings
r.add(Buffer.from('cache-c')) // error: a Rendezvous<string> takes string ids
r.owner(42) // error: a key is a string, Buffer or Uint8Array
const bad = r.topK('user:42') // error: k is required
r.save('members.toml', { secretFile: 5 }) // error: a secret source is a string
r.save('members.toml', { secretfile: 'secret.hex' }) // error: no such save option
const sync: Rendezvous<string> = Rendezvous.loadAsync('members.toml') // error: loadAsync returns a Promise
new Rendezvous(['a'], { secret: '5e1f0a93c4d27b68e90f13a2c5b74d86' }) // error: a secret is bytes, not a string

export const used = [wrongType, bad, sync]
