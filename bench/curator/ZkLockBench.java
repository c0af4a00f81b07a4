import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.framework.recipes.leader.LeaderLatch;
import org.apache.curator.framework.recipes.leader.LeaderLatchListener;
import org.apache.curator.framework.recipes.locks.InterProcessMutex;
import org.apache.curator.framework.recipes.locks.InterProcessReadWriteLock;
import org.apache.curator.framework.recipes.locks.InterProcessSemaphoreV2;
import org.apache.curator.framework.recipes.locks.Lease;
import org.apache.curator.retry.ExponentialBackoffRetry;

/**
 * ZkLockBench drives Apache Curator's lock recipes for zklock: the benchmarks
 * (cmd/bench) compare against it, and the interoperability test
 * (impl/zklock/interop_test.go) contends with it on one lock path.
 *
 * <pre>
 * bench --servers H:P,... --run KIND:CLIENTS:PATH ... [--iterations N --warmup N --jit-warmup N
 *       --duration-ms D --warm-ms W --write-every K --hold-us H --session-timeout-ms T
 *       --failover-rounds N --failover-warmup N]
 *     KIND is uncontended, contended, readmostly, semaphore-N (CLIENTS loop on one
 *     InterProcessSemaphoreV2 of N leases), failover-resign or failover-close
 *     (LeaderLatch; CLIENTS is ignored). One JSON object per run on stdout; a
 *     looping run (contended, readmostly, semaphore-N) also prints, before its
 *     result, {"window":"open"} and {"window":"close"} as its measured window
 *     opens and closes, so that the caller can ask the servers what they did
 *     in between.
 * hold  --servers H:P,... [--session-timeout-ms T] [--dry-run]
 *     reads commands on stdin, one per line, and answers on stdout:
 *       acquire ID mutex|read|write|latch|semaphore-N PATH  ->  granted ID NODE   (own session
 *                                                 per ID; latch: a LeaderLatch, granted once it
 *                                                 leads; semaphore-N: a lease of an
 *                                                 InterProcessSemaphoreV2 of N leases, NODE its
 *                                                 lease node)
 *       release ID                        ->  released ID
 *       quit
 *     any failure                         ->  error ID message
 *     --dry-run answers "would ..." for each command and touches no server.
 * </pre>
 *
 * Diagnostics go to stderr only: stdout carries nothing but the protocol above.
 */
public final class ZkLockBench {
    private ZkLockBench() {}

    public static void main(String[] args) throws Exception {
        if (args.length == 0) {
            usage("no mode");
        }
        Flags f = new Flags(Arrays.copyOfRange(args, 1, args.length));
        switch (args[0]) {
            case "bench":
                bench(f);
                break;
            case "hold":
                hold(f);
                break;
            default:
                usage("unknown mode " + args[0]);
        }
        // Curator and ZooKeeper leave non-daemon threads behind on some paths.
        System.exit(0);
    }

    static void usage(String why) {
        System.err.println("ZkLockBench: " + why);
        System.err.println("usage: ZkLockBench bench|hold --servers H:P,... [flags]; see the class comment");
        System.exit(2);
    }

    /** Flags is --name value pairs; --run may repeat; --dry-run takes no value. */
    static final class Flags {
        final Map<String, List<String>> values = new ConcurrentHashMap<>();

        Flags(String[] args) {
            for (int i = 0; i < args.length; i++) {
                String a = args[i];
                if (!a.startsWith("--")) {
                    usage("unexpected argument " + a);
                }
                String name = a.substring(2);
                String value = "true";
                if (!name.equals("dry-run")) {
                    if (i + 1 >= args.length) {
                        usage("flag " + a + " needs a value");
                    }
                    value = args[++i];
                }
                values.computeIfAbsent(name, k -> new ArrayList<>()).add(value);
            }
        }

        String str(String name, String def) {
            List<String> v = values.get(name);
            return v == null ? def : v.get(v.size() - 1);
        }

        long num(String name, long def) {
            String v = str(name, null);
            return v == null ? def : Long.parseLong(v);
        }

        List<String> all(String name) {
            return values.getOrDefault(name, List.of());
        }

        boolean has(String name) {
            return values.containsKey(name);
        }
    }

    /** A client is one Curator framework, hence one ZooKeeper session. */
    static CuratorFramework connect(Flags f) throws InterruptedException {
        String servers = f.str("servers", null);
        if (servers == null) {
            usage("--servers is required");
        }
        int sessionMs = (int) f.num("session-timeout-ms", 10_000);
        CuratorFramework c = CuratorFrameworkFactory.builder()
                .connectString(servers)
                .sessionTimeoutMs(sessionMs)
                // Curator warns when the connection timeout exceeds the session's.
                .connectionTimeoutMs(Math.min(15_000, sessionMs))
                .retryPolicy(new ExponentialBackoffRetry(100, 5))
                .build();
        c.start();
        if (!c.blockUntilConnected(60, TimeUnit.SECONDS)) {
            throw new IllegalStateException("no connection to " + servers + " within 60 s");
        }
        return c;
    }

    // ---------------------------------------------------------------- bench

    /** Result is one run's raw measurements; cmd/bench computes every statistic. */
    static final class Result {
        String kind;
        int clients;
        long ops;
        long elapsedNs;
        final List<Long> latencyNs = new ArrayList<>();
        final List<Long> handoffNs = new ArrayList<>();

        String json() {
            StringBuilder b = new StringBuilder();
            b.append("{\"impl\":\"curator\",\"kind\":\"").append(kind)
                    .append("\",\"clients\":").append(clients)
                    .append(",\"ops\":").append(ops)
                    .append(",\"elapsed_ns\":").append(elapsedNs)
                    .append(",\"latency_ns\":");
            list(b, latencyNs);
            b.append(",\"handoff_ns\":");
            list(b, handoffNs);
            return b.append('}').toString();
        }

        private static void list(StringBuilder b, List<Long> xs) {
            b.append('[');
            for (int i = 0; i < xs.size(); i++) {
                if (i > 0) {
                    b.append(',');
                }
                b.append(xs.get(i));
            }
            b.append(']');
        }
    }

    static void bench(Flags f) throws Exception {
        List<String> runs = f.all("run");
        if (runs.isEmpty()) {
            usage("bench needs at least one --run KIND:CLIENTS:PATH");
        }
        for (String spec : runs) {
            String[] p = spec.split(":", 3);
            if (p.length != 3) {
                usage("bad --run " + spec);
            }
            int clients = Integer.parseInt(p[1]);
            Result r;
            switch (p[0]) {
                case "uncontended":
                    r = uncontended(f, p[2]);
                    break;
                case "contended":
                case "readmostly":
                    r = contended(f, p[0], clients, p[2]);
                    break;
                case "failover-resign":
                case "failover-close":
                    r = failover(f, p[0], p[2]);
                    break;
                default:
                    if (!p[0].matches("semaphore-[1-9][0-9]{0,3}")) {
                        usage("unknown run kind " + p[0]);
                    }
                    r = contended(f, p[0], clients, p[2]);
            }
            System.out.println(r.json());
            System.out.flush();
        }
    }

    /**
     * One client, acquire+release back to back; latency is the pair. Before
     * the common warm-up, jit-warmup more unmeasured pairs let HotSpot compile
     * the hot paths, a cost a long-running Java service has long paid.
     */
    static Result uncontended(Flags f, String path) throws Exception {
        long warmup = f.num("warmup", 50) + f.num("jit-warmup", 0);
        long iterations = f.num("iterations", 500);
        Result r = new Result();
        r.kind = "uncontended";
        r.clients = 1;
        try (CuratorFramework c = connect(f)) {
            InterProcessMutex m = new InterProcessMutex(c, path);
            for (long i = 0; i < warmup; i++) {
                m.acquire();
                m.release();
            }
            long start = System.nanoTime();
            for (long i = 0; i < iterations; i++) {
                long t0 = System.nanoTime();
                m.acquire();
                m.release();
                r.latencyNs.add(System.nanoTime() - t0);
            }
            r.elapsedNs = System.nanoTime() - start;
            r.ops = iterations;
        }
        return r;
    }

    /** Grant is a held lock or lease; release gives it back. */
    interface Grant {
        void release() throws Exception;
    }

    /** Acquirer is one client's recipe: its n-th acquisition waits and returns the grant. */
    interface Acquirer {
        Grant acquire(long n) throws Exception;
    }

    /**
     * acquirer builds a client's recipe for a looping run kind. Curator insists
     * that the thread that acquired a lock releases it, and every Grant here
     * is released by the thread that acquire returned it to.
     */
    static Acquirer acquirer(CuratorFramework c, String kind, String path, int id, long writeEvery) {
        if (kind.equals("contended")) {
            InterProcessMutex m = new InterProcessMutex(c, path);
            return n -> {
                m.acquire();
                return m::release;
            };
        }
        if (kind.equals("readmostly")) {
            InterProcessReadWriteLock rw = new InterProcessReadWriteLock(c, path);
            return n -> {
                // Offset by id so that writes of different clients interleave.
                InterProcessMutex m = (n + id) % writeEvery == 0 ? rw.writeLock() : rw.readLock();
                m.acquire();
                return m::release;
            };
        }
        InterProcessSemaphoreV2 s = new InterProcessSemaphoreV2(c, path, semaphoreMax(kind));
        return n -> {
            Lease l = s.acquire();
            return () -> s.returnLease(l);
        };
    }

    /** semaphoreMax is N of a semaphore-N run kind. */
    static int semaphoreMax(String kind) {
        return Integer.parseInt(kind.substring("semaphore-".length()));
    }

    /**
     * A fresh JVM interprets InterProcessSemaphoreV2 until HotSpot compiles
     * it. In a run with an uncontended run first, that run's jit-warmup
     * compiled InterProcessMutex, the semaphore's internal lock, but not the
     * semaphore's own code: the first semaphore run of a JVM is preceded by
     * jit-warmup unmeasured acquire/returnLease pairs of one client.
     */
    static boolean semaphoreWarmed;

    static void warmSemaphore(Flags f, CuratorFramework c, String kind, String path) throws Exception {
        if (semaphoreWarmed || !kind.startsWith("semaphore-")) {
            return;
        }
        semaphoreWarmed = true;
        Acquirer a = acquirer(c, kind, path, 0, 1);
        for (long i = 0, n = f.num("jit-warmup", 0); i < n; i++) {
            a.acquire(i).release();
        }
    }

    /** window prints a window marker (see the class comment) at the given System.nanoTime(). */
    static void window(String what, long at) throws InterruptedException {
        long wait = at - System.nanoTime();
        if (wait > 0) {
            TimeUnit.NANOSECONDS.sleep(wait);
        }
        System.out.println("{\"window\":\"" + what + "\"}");
        System.out.flush();
    }

    /**
     * N clients, each its own session, loop acquire/release on one path for
     * warm-ms + duration-ms; only grants inside the measured window count.
     * contended: InterProcessMutex. readmostly: InterProcessReadWriteLock,
     * every write-every-th acquisition of a client a write, the rest reads.
     * semaphore-N: one lease of an InterProcessSemaphoreV2 of N leases.
     * Latency is acquire's (queueing included). Hand-off (contended only) is
     * from the moment a holder starts its release to the return of the next
     * grant, whoever gets it.
     */
    static Result contended(Flags f, String kind, int clients, String path) throws Exception {
        long warmNs = TimeUnit.MILLISECONDS.toNanos(f.num("warm-ms", 500));
        long runNs = TimeUnit.MILLISECONDS.toNanos(f.num("duration-ms", 3000));
        long writeEvery = f.num("write-every", 10);
        long holdNs = TimeUnit.MICROSECONDS.toNanos(f.num("hold-us", 0));
        List<CuratorFramework> cs = new ArrayList<>();
        try {
            for (int i = 0; i < clients; i++) {
                cs.add(connect(f));
            }
            warmSemaphore(f, cs.get(0), kind, path);
            Result r = new Result();
            r.kind = kind;
            r.clients = clients;
            AtomicLong lastRelease = new AtomicLong(0);
            AtomicLong ops = new AtomicLong();
            AtomicReference<Throwable> failure = new AtomicReference<>();
            CountDownLatch go = new CountDownLatch(1);
            List<Thread> threads = new ArrayList<>();
            List<List<Long>> lats = new ArrayList<>();
            List<List<Long>> hands = new ArrayList<>();
            long[] window = new long[2];
            for (int i = 0; i < clients; i++) {
                final int id = i;
                final List<Long> lat = new ArrayList<>();
                final List<Long> hand = new ArrayList<>();
                lats.add(lat);
                hands.add(hand);
                final CuratorFramework c = cs.get(i);
                Thread t = new Thread(() -> {
                    try {
                        Acquirer a = acquirer(c, kind, path, id, writeEvery);
                        boolean exclusive = kind.equals("contended");
                        go.await();
                        long measureFrom = window[0];
                        long end = window[1];
                        for (long n = 0; System.nanoTime() < end; n++) {
                            long t0 = System.nanoTime();
                            Grant g = a.acquire(n);
                            long granted = System.nanoTime();
                            long prev = lastRelease.get();
                            if (granted >= measureFrom && granted < end) {
                                ops.incrementAndGet();
                                lat.add(granted - t0);
                                if (prev != 0 && exclusive) {
                                    hand.add(granted - prev);
                                }
                            }
                            if (holdNs > 0 && !kind.startsWith("semaphore")) {
                                LockSupport.parkNanos(holdNs); // the holder's critical section
                            }
                            lastRelease.set(System.nanoTime());
                            g.release();
                        }
                    } catch (Throwable e) {
                        failure.compareAndSet(null, e);
                    }
                });
                threads.add(t);
                t.start();
            }
            window[0] = System.nanoTime() + warmNs;
            window[1] = window[0] + runNs;
            go.countDown(); // publishes window to the threads
            window("open", window[0]);
            window("close", window[1]);
            for (Thread t : threads) {
                t.join();
            }
            if (failure.get() != null) {
                throw new IllegalStateException(kind + " run failed", failure.get());
            }
            r.ops = ops.get();
            r.elapsedNs = runNs;
            for (List<Long> l : lats) {
                r.latencyNs.addAll(l);
            }
            for (List<Long> h : hands) {
                r.handoffNs.addAll(h);
            }
            return r;
        } finally {
            for (CuratorFramework c : cs) {
                c.close();
            }
        }
    }

    /**
     * Failover, LeaderLatch's side of cmd/bench's: LeaderLatch A leads, B
     * waits, A's tenure ends, and a round runs from then to B's isLeader
     * callback. failover-resign: A.close(), which is LeaderLatch's resign
     * (it deletes A's node); failover-close: A's whole client closes, its
     * session with it, a crash with a clean disconnect. After a resign, A's
     * client campaigns again with a new LeaderLatch (a closed one cannot
     * restart); after a close, a new client does. LeaderLatch has no
     * observer, so a run has no observed_ns. latency_ns: one per measured round.
     */
    static Result failover(Flags f, String kind, String path) throws Exception {
        long rounds = f.num("failover-rounds", 30);
        long warmup = f.num("failover-warmup", 3);
        Result r = new Result();
        r.kind = kind;
        CuratorFramework a = connect(f);
        CuratorFramework spare = null;
        try {
            Candidate lead = new Candidate(a, path);
            if (!lead.led.await(30, TimeUnit.SECONDS)) {
                throw new IllegalStateException("the first LeaderLatch never led");
            }
            long start = System.nanoTime();
            for (long i = 0; i < warmup + rounds; i++) {
                if (i == warmup) {
                    start = System.nanoTime();
                }
                CuratorFramework b = spare != null ? spare : connect(f);
                spare = null;
                Candidate next = new Candidate(b, path);
                queued(b, path);
                long t0 = System.nanoTime();
                if (kind.equals("failover-resign")) {
                    lead.latch.close();
                    spare = a;
                } else {
                    a.close();
                }
                if (!next.led.await(30, TimeUnit.SECONDS)) {
                    throw new IllegalStateException(kind + " round " + (i + 1) + ": the next LeaderLatch never led");
                }
                if (i >= warmup) {
                    r.latencyNs.add(next.ledAt.get() - t0);
                }
                lead = next;
                a = b;
            }
            r.elapsedNs = System.nanoTime() - start;
            r.ops = rounds;
            return r;
        } finally {
            a.close();
            if (spare != null) {
                spare.close();
            }
        }
    }

    /** Candidate is a started LeaderLatch and the moment its isLeader came. */
    static final class Candidate {
        final LeaderLatch latch;
        final AtomicLong ledAt = new AtomicLong();
        final CountDownLatch led = new CountDownLatch(1);

        Candidate(CuratorFramework c, String path) throws Exception {
            latch = new LeaderLatch(c, path, "bench");
            latch.addListener(new LeaderLatchListener() {
                @Override
                public void isLeader() {
                    ledAt.set(System.nanoTime());
                    led.countDown();
                }

                @Override
                public void notLeader() {}
            });
            latch.start();
        }
    }

    /**
     * queued waits until the waiting LeaderLatch's node is there (two
     * candidates), then 100 ms more: LeaderLatch tells nobody when its watch
     * on the leader's node is set, two round trips after its create, and a
     * round that began before would time a listing, not a notification.
     */
    static void queued(CuratorFramework c, String path) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (c.getChildren().forPath(path).size() < 2) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("the next LeaderLatch never queued");
            }
            Thread.sleep(1);
        }
        Thread.sleep(100);
    }

    // ----------------------------------------------------------------- hold

    /** A contender's thread acquires, waits for its release command, releases. */
    static final Map<String, BlockingQueue<String>> contenders = new ConcurrentHashMap<>();

    static synchronized void say(String line) {
        System.out.println(line);
        System.out.flush();
    }

    static void hold(Flags f) throws Exception {
        boolean dry = f.has("dry-run");
        if (!dry && f.str("servers", null) == null) {
            usage("--servers is required");
        }
        say(dry ? "ready dry-run" : "ready");
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        String line;
        while ((line = in.readLine()) != null) {
            String[] w = line.trim().split("\\s+");
            if (w.length == 0 || w[0].isEmpty()) {
                continue;
            }
            switch (w[0]) {
                case "acquire":
                    if (w.length != 4 || !(List.of("mutex", "read", "write", "latch").contains(w[2])
                            || w[2].matches("semaphore-[1-9][0-9]{0,3}"))) {
                        say("error - usage: acquire ID mutex|read|write|latch|semaphore-N PATH");
                    } else if (dry) {
                        say("would acquire " + w[1] + ": new session, " + recipe(w[2]) + " on " + w[3]
                                + ", lock node data \"" + nodeData(w[1]) + "\"");
                    } else {
                        startContender(f, w[1], w[2], w[3]);
                    }
                    break;
                case "release":
                    if (w.length != 2) {
                        say("error - usage: release ID");
                    } else if (dry) {
                        say("would release " + w[1] + " on the thread that acquired it, then close its session");
                    } else {
                        BlockingQueue<String> q = contenders.get(w[1]);
                        if (q == null) {
                            say("error " + w[1] + " no such contender");
                        } else {
                            q.add("release");
                        }
                    }
                    break;
                case "quit":
                    return;
                default:
                    say("error - unknown command " + w[0]);
            }
        }
    }

    static String recipe(String kind) {
        if (kind.startsWith("semaphore-")) {
            return "InterProcessSemaphoreV2 with " + kind.substring("semaphore-".length()) + " leases";
        }
        switch (kind) {
            case "mutex":
                return "InterProcessMutex";
            case "read":
                return "InterProcessReadWriteLock.readLock()";
            case "latch":
                return "LeaderLatch";

            default:
                return "InterProcessReadWriteLock.writeLock()";
        }
    }

    /** The lock node's data names the contender, so that its node can be found. */
    static String nodeData(String id) {
        return "curator:" + id;
    }

    static void startContender(Flags f, String id, String kind, String path) {
        BlockingQueue<String> q = new LinkedBlockingQueue<>();
        if (contenders.putIfAbsent(id, q) != null) {
            say("error " + id + " already exists");
            return;
        }
        byte[] data = nodeData(id).getBytes(StandardCharsets.UTF_8);
        Thread t = new Thread(() -> {
            if (kind.equals("latch")) {
                latch(f, id, path, q);
                return;
            }
            if (kind.startsWith("semaphore-")) {
                semaphore(f, id, path, Integer.parseInt(kind.substring("semaphore-".length())), q);
                return;
            }
            try (CuratorFramework c = connect(f)) {
                InterProcessMutex m;
                if (kind.equals("mutex")) {
                    m = new InterProcessMutex(c, path) {
                        @Override
                        protected byte[] getLockNodeBytes() {
                            return data;
                        }
                    };
                } else {
                    InterProcessReadWriteLock rw = new InterProcessReadWriteLock(c, path, data);
                    m = kind.equals("read") ? rw.readLock() : rw.writeLock();
                }
                m.acquire();
                say("granted " + id + " " + ownNode(c, path, data));
                q.take();
                // Curator insists that the acquiring thread releases.
                m.release();
                say("released " + id);
            } catch (Throwable e) {
                say("error " + id + " " + e.toString().replace('\n', ' '));
            } finally {
                contenders.remove(id);
            }
        }, "contender-" + id);
        t.setDaemon(true);
        t.start();
    }

    /** latch runs a LeaderLatch whose participant id (its node's data) names the contender. */
    static void latch(Flags f, String id, String path, BlockingQueue<String> q) {
        try (CuratorFramework c = connect(f)) {
            LeaderLatch l = new LeaderLatch(c, path, nodeData(id));
            l.start();
            l.await();
            say("granted " + id + " " + ownNode(c, path, nodeData(id).getBytes(StandardCharsets.UTF_8)));
            q.take();
            l.close(); // deletes its node
            say("released " + id);
        } catch (Throwable e) {
            say("error " + id + " " + e.toString().replace('\n', ' '));
        } finally {
            contenders.remove(id);
        }
    }

    /** semaphore takes one lease of an InterProcessSemaphoreV2; its lease node's data names the contender. */
    static void semaphore(Flags f, String id, String path, int max, BlockingQueue<String> q) {
        try (CuratorFramework c = connect(f)) {
            byte[] data = nodeData(id).getBytes(StandardCharsets.UTF_8);
            InterProcessSemaphoreV2 s = new InterProcessSemaphoreV2(c, path, max);
            s.setNodeData(data);
            Lease l = s.acquire();
            say("granted " + id + " " + ownNode(c, path + "/leases", data));
            q.take();
            s.returnLease(l); // deletes its lease node
            say("released " + id);
        } catch (Throwable e) {
            say("error " + id + " " + e.toString().replace('\n', ' '));
        } finally {
            contenders.remove(id);
        }
    }

    /** ownNode finds our lock node by its data: Curator does not expose it. */
    static String ownNode(CuratorFramework c, String path, byte[] data) throws Exception {
        for (String child : c.getChildren().forPath(path)) {
            try {
                if (Arrays.equals(c.getData().forPath(path + "/" + child), data)) {
                    return path + "/" + child;
                }
            } catch (org.apache.zookeeper.KeeperException.NoNodeException gone) {
                // another contender's node, released meanwhile
            }
        }
        return "?";
    }
}
