// The same user, as a CommonJS module (require), type-checked by `tsc --strict --noEmit`.
import longstraw = require('longstraw')

const r = new longstraw.Rendezvous(['cache-a', 'cache-b', 'cache-c'], { seed: 0 })
const owner: string = r.owner('user:42')
const replicas: string[] = r.topK('user:42', 2)
const t = longstraw.Rendezvous.table(['cache-a', 'cache-b'], { replicas: 2 })
const tableReplicas: string[] = t.topK('user:42', 2)
const k = longstraw.Rendezvous.skeleton(['cache-a', 'cache-b'])
const snap: longstraw.Snapshot<string> = k.snapshot()
const snapOwner: string = snap.owner('k')
r.ownersAsync(['k']).then((owners: string[]) => owners.length)
const mixed: longstraw.Rendezvous<longstraw.NodeId> = new longstraw.Rendezvous([Buffer.from('a')])
const kernel: string = longstraw.backend()
const saveOptions: longstraw.SaveOptions = { secretEnv: 'LONGSTRAW_SECRET' }
new longstraw.Rendezvous(['a'], { secret: Buffer.alloc(16) }).save('/tmp/keyed.toml', saveOptions)
longstraw.Rendezvous.loadAsync('/tmp/table.toml').then((loaded: longstraw.Rendezvous<longstraw.NodeId>) => loaded.size)

export = { owner, replicas, tableReplicas, snapOwner, mixed, kernel }
