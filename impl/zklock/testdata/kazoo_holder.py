"""kazoo lock holder for zklock's interop tests (kazoo_interop_test.go).

Usage: kazoo_holder.py SERVERS SESSION_TIMEOUT_SECONDS

Reads commands on stdin, one a line, and reports on stdout:
  acquire ID KIND PATH  -> "granted ID PATH/NODE" once held
  release ID            -> "released ID" once the node is deleted
  quit
KIND is "lock" (kazoo Lock), "read" (ReadLock) or "write" (WriteLock). Each
contender's node carries "kazoo:ID" as its data (kazoo's identifier). Every
lock counts Curator's (and so zklock's) node names too, through kazoo's
extra_lock_patterns: a reader the write and mutex nodes, a writer or a Lock
all of them. Errors are reported as "error ..." lines.
"""

import sys
import threading

from kazoo.client import KazooClient

# Curator's markers, as zklock writes them: _c_<uuid>-lock-<seq>,
# _c_<uuid>-__READ__<seq>, _c_<uuid>-__WRIT__<seq>.
EXCLUSIVE = ["-lock-", "-__WRIT__"]
EVERY = EXCLUSIVE + ["-__READ__"]

out_lock = threading.Lock()


def say(*words):
    with out_lock:
        sys.stdout.write(" ".join(words) + "\n")
        sys.stdout.flush()


def make_lock(zk, kind, path, ident):
    if kind == "lock":
        return zk.Lock(path, ident, extra_lock_patterns=EVERY)
    if kind == "write":
        return zk.WriteLock(path, ident, extra_lock_patterns=EVERY)
    if kind == "read":
        return zk.ReadLock(path, ident, extra_lock_patterns=EXCLUSIVE)
    raise ValueError("unknown kind " + kind)


def acquire(lock, ident):
    try:
        if lock.acquire():
            say("granted", ident, lock.path + "/" + lock.node)
        else:
            say("error", ident, "acquire returned False")
    except Exception as e:  # reported, never swallowed
        say("error", ident, repr(e).replace("\n", " "))


def main():
    servers, timeout = sys.argv[1], float(sys.argv[2])
    zk = KazooClient(hosts=servers, timeout=timeout)
    zk.start(timeout=60)
    locks, threads = {}, []
    say("ready")
    for line in sys.stdin:
        f = line.split()
        if not f:
            continue
        try:
            if f[0] == "acquire" and len(f) == 4:
                ident, kind, path = f[1], f[2], f[3]
                lock = make_lock(zk, kind, path, "kazoo:" + ident)
                locks[ident] = lock
                t = threading.Thread(target=acquire, args=(lock, ident), daemon=True)
                t.start()
                threads.append(t)
            elif f[0] == "release" and len(f) == 2:
                locks.pop(f[1]).release()
                say("released", f[1])
            elif f[0] == "quit":
                break
            else:
                say("error", "bad command", line.strip())
        except Exception as e:
            say("error", repr(e).replace("\n", " "))
    for lock in locks.values():
        lock.cancel()
    for t in threads:
        t.join(10)
    zk.stop()
    zk.close()


if __name__ == "__main__":
    main()
