import json, sys, time, sqlite3
sys.path.insert(0,'/tmp/snap_all/src')
from hindsight.client import ResilientClient
tok=json.load(open('/tmp/atk/tok_crash.txt'))['token']
c=ResilientClient("http://127.0.0.1:18710/mcp","/tmp/atk/q.db",token=tok,timeout=10)
print('before', c.status())
n=c.flush(attempts=10, wait=True); print('flushed', n, c.status()); print('dead', c.dead_letters())
d=json.load(open('/tmp/atk/crash_out.json'))
c.close()
con=sqlite3.connect('/tmp/atk/c.db')
rows=con.execute("select id, content, status from memories where namespace='crash'").fetchall()
from collections import Counter
cnt=Counter(r[1] for r in rows)
print('rows',len(rows),'distinct',len(cnt),'dups',[k[:40] for k,v in cnt.items() if v>1])
for i,f in enumerate(d['facts']):
    a=d['acks'][str(i)]
    if f not in cnt: print('MISSING', i, a.get('action') or a.get('queued'), f[:50])
ids={r[0] for r in rows}
for i,a in d['acks'].items():
    if 'memory_id' in a and a['memory_id'] not in ids: print('ACKED ID MISSING', i, a)
print(Counter(r[2] for r in rows))
