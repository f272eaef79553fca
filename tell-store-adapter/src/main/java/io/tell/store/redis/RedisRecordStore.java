package io.tell.store.redis;

import io.lettuce.core.KeyValue;
import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.api.StatefulRedisConnection;
import io.netty.util.concurrent.FastThreadLocalThread;
import io.tell.error.ErrorCode;
import io.tell.error.TellException;
import io.tell.store.Domains;
import io.tell.store.KeyRange;
import io.tell.store.RecordKey;
import io.tell.store.RecordStore;
import io.tell.store.StoredRecord;
import io.tell.store.Versioned;
import io.tell.store.WriteOp;
import io.tell.store.WriteResult;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The record store on Redis 7, standalone or Redis Cluster ({@link RedisStoreProvider} opens it).
 *
 * <p>Layout and versions: see {@link RedisKeys}; conditional writes run in one server-side
 * function ({@code tell_v5.lua}, see {@link RedisFunctions}), loaded on every primary at
 * open and again on a node that turns out not to have it. Costs in network round trips:
 * a read, a write or an increment is one; a batch is one per node involved, the nodes in
 * parallel (all commands are sent before any answer is awaited). With {@code replicas=N} a
 * write's WAIT travels in the same pipeline, so it adds the primary-to-replica acknowledgement
 * but no client round trip. A scan is O(domain size), see {@link RedisScan}.
 *
 * <p>On one standalone server over plain TCP, reads and record writes go over blocking
 * connections on the calling thread ({@link DirectClient}, {@code client=direct}, the default):
 * their futures are complete when returned. Everything else, and every call made on an event-loop
 * thread, goes through Lettuce, whose futures complete on its event-loop threads; the store never
 * blocks in them, and its blocking helpers refuse to run on such a thread rather than deadlock it.
 */
public final class RedisRecordStore implements RecordStore {
    private final RedisStoreConfig config;
    private final RedisNodes nodes;
    /** Writes per function call on a standalone server: bounds how long one call holds the server. */
    static final int WRITES_PER_CALL = 256;

    private final PrimaryWriter writer;
    private final RedisScan scanner;
    /** Reads and writes over blocking connections on the caller's thread; null when they go through Lettuce. */
    private final DirectClient direct;
    private final AtomicBoolean closed = new AtomicBoolean();

    private RedisRecordStore(RedisStoreConfig config, RedisNodes nodes, InFlightWrites inFlight) {
        this.config = config;
        this.nodes = nodes;
        this.writer = new PrimaryWriter(nodes, inFlight, config.replicas(), config.waitTimeout().toMillis());
        this.scanner = new RedisScan(nodes);
        this.direct = config.direct() ? new DirectClient(config) : null;
    }

    /** Connects and loads the function library on every primary; fails with a translated TellException. */
    static RedisRecordStore open(RedisStoreConfig config) {
        checkNotOnEventLoop();
        InFlightWrites inFlight = new InFlightWrites();
        RedisNodes nodes;
        try {
            nodes = config.cluster() ? ClusterNodes.connect(config, inFlight) : StandaloneNodes.connect(config, inFlight);
        } catch (RuntimeException e) {
            TellException failure = RedisErrors.translate(e);
            if (failure.code() == ErrorCode.STORE_UNAVAILABLE) {
                checkLogin(config, failure);
            }
            throw failure;
        }
        try {
            CompletableFuture<Void> loaded = nodes.primaries().thenCompose(primaries -> {
                List<CompletableFuture<String>> loads = new ArrayList<>();
                for (StatefulRedisConnection<byte[], byte[]> primary : primaries) {
                    loads.add(RedisFunctions.loadOn(primary));
                }
                return CompletableFuture.allOf(loads.toArray(CompletableFuture[]::new));
            });
            TellException.join(RedisErrors.translated(loaded.orTimeout(config.timeout().toMillis() * 2, TimeUnit.MILLISECONDS)));
            return new RedisRecordStore(config, nodes, inFlight);
        } catch (RuntimeException e) {
            nodes.close();
            throw e;
        }
    }

    /**
     * Lettuce sometimes reports a refused login only as a lost connection (its handshake handler
     * gone in a race), so when connecting failed the first server is asked directly (plain TCP
     * only): a refused login, or a PING refused for want of one, then fails with AUTH_FAILED.
     */
    private static void checkLogin(RedisStoreConfig config, TellException failure) {
        if (config.tls()) {
            return;
        }
        try (RespConnection c = RespConnection.open(config.hosts().get(0), config.login(), (int) config.timeout().toMillis())) {
            c.send("PING".getBytes(StandardCharsets.US_ASCII));
            c.flush();
            if (c.read() instanceof RespConnection.Error e) { // NOAUTH: the server wants a login the URL lacks
                throw new RespConnection.Refused(e.message());
            }
        } catch (RespConnection.Refused refused) {
            TellException auth = RedisErrors.translate(new RedisCommandExecutionException(refused.getMessage()));
            auth.addSuppressed(failure);
            throw auth;
        } catch (IOException unreachable) {
            failure.addSuppressed(unreachable);
        }
    }

    @Override
    public CompletableFuture<Versioned> getAsync(RecordKey key) {
        if (callsDirectly()) {
            try {
                return CompletableFuture.completedFuture(RedisKeys.decodeRecord(direct.get(RedisKeys.recordKey(key))));
            } catch (RuntimeException e) {
                return CompletableFuture.failedFuture(RedisErrors.translate(e));
            }
        }
        return RedisErrors.translated(read(key));
    }

    /**
     * A standalone server called directly: a batch goes out on one connection, its commands
     * pipelined in order, and the server runs them one after another.
     */
    @Override
    public boolean ordersBatches() {
        return callsDirectly() && !(nodes instanceof ClusterNodes);
    }

    /**
     * The library's follow function on a standalone server called directly; elsewhere the
     * pointer and then its record, two calls (in a cluster they may live on different nodes).
     */
    @Override
    public CompletableFuture<List<Versioned>> getAllFollowingAsync(List<RecordKey> keys, String domain) {
        if (!followsInOneCall()) {
            return RecordStore.super.getAllFollowingAsync(keys, domain);
        }
        try {
            return CompletableFuture.completedFuture(decoded(direct.follow(redisKeys(keys), RedisKeys.domainPrefix(domain))));
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(RedisErrors.translate(e));
        }
    }

    /** True on the direct path, which only a standalone server has. */
    @Override
    public boolean followsInOneCall() {
        return callsDirectly();
    }

    private static List<byte[]> redisKeys(List<RecordKey> keys) {
        List<byte[]> out = new ArrayList<>(keys.size());
        for (RecordKey k : keys) {
            out.add(RedisKeys.recordKey(k));
        }
        return out;
    }

    private static List<Versioned> decoded(List<byte[]> values) {
        List<Versioned> out = new ArrayList<>(values.size());
        for (byte[] value : values) {
            out.add(RedisKeys.decodeRecord(value));
        }
        return out;
    }

    /**
     * Direct calls block the calling thread, which is fine for a transaction's thread and never
     * for an event loop's (a commit manager's server, or a callback of a Lettuce future).
     */
    private boolean callsDirectly() {
        return direct != null && !(Thread.currentThread() instanceof FastThreadLocalThread);
    }

    /**
     * Most reads of one batch in flight at once. A larger batch goes out in windows of this
     * many, each sent when the one before has answered: every command's time-out counts from
     * when it is queued, so a batch of hundreds of thousands of keys queued at once (a full
     * table scan's rows) would see its tail time out behind its head.
     */
    static final int READ_WINDOW = 4096;

    @Override
    public CompletableFuture<List<Versioned>> getAllAsync(List<RecordKey> keys) {
        if (callsDirectly()) {
            try {
                return CompletableFuture.completedFuture(decoded(direct.getAll(redisKeys(keys), KEYS_PER_MGET)));
            } catch (RuntimeException e) {
                return CompletableFuture.failedFuture(RedisErrors.translate(e));
            }
        }
        if (keys.size() <= READ_WINDOW) {
            return RedisErrors.translated(readAll(keys));
        }
        CompletableFuture<List<Versioned>> all = CompletableFuture.completedFuture(new ArrayList<>(keys.size()));
        for (int from = 0; from < keys.size(); from += READ_WINDOW) {
            List<RecordKey> window = keys.subList(from, Math.min(keys.size(), from + READ_WINDOW));
            all = all.thenCompose(done -> readAll(window).thenApply(read -> {
                done.addAll(read);
                return done;
            }));
        }
        return RedisErrors.translated(all);
    }

    /** Keys per MGET: the reads of a batch go out as a few pipelined MGETs rather than one GET each. */
    static final int KEYS_PER_MGET = 256;

    /**
     * A batch read as MGETs of up to {@value #KEYS_PER_MGET} keys, pipelined (in a cluster
     * Lettuce splits each by slot and puts the answers back in order): one command, future and
     * reply per chunk on the client, instead of per key.
     */
    private CompletableFuture<List<Versioned>> readAll(List<RecordKey> keys) {
        List<CompletableFuture<List<KeyValue<byte[], byte[]>>>> chunks = new ArrayList<>();
        for (int from = 0; from < keys.size(); from += KEYS_PER_MGET) {
            List<RecordKey> chunk = keys.subList(from, Math.min(keys.size(), from + KEYS_PER_MGET));
            byte[][] redisKeys = new byte[chunk.size()][];
            for (int i = 0; i < redisKeys.length; i++) {
                redisKeys[i] = RedisKeys.recordKey(chunk.get(i));
            }
            chunks.add(nodes.routed().mget(redisKeys).toCompletableFuture());
        }
        return CompletableFuture.allOf(chunks.toArray(CompletableFuture[]::new)).thenApply(v -> {
            List<Versioned> out = new ArrayList<>(keys.size());
            for (CompletableFuture<List<KeyValue<byte[], byte[]>>> chunk : chunks) {
                for (KeyValue<byte[], byte[]> kv : chunk.join()) {
                    out.add(RedisKeys.decodeRecord(kv.hasValue() ? kv.getValue() : null));
                }
            }
            if (out.size() != keys.size()) {
                throw new IllegalStateException("MGET answered " + out.size() + " values for " + keys.size() + " keys");
            }
            return out;
        });
    }

    @Override
    public CompletableFuture<WriteResult> writeAsync(WriteOp op) {
        return writeAllAsync(List.of(op)).thenApply(results -> results.get(0));
    }

    /**
     * One function call per group of writes: in a cluster the writes of one slot (all keys of a
     * call must share it), on a standalone server up to {@value #WRITES_PER_CALL} writes at a
     * time. Per-call overhead on the server (entering the function, reading the clock) is paid
     * once per group, not per write.
     */
    @Override
    public CompletableFuture<List<WriteResult>> writeAllAsync(List<WriteOp> ops) {
        // The first write's chain is empty: only a chained write after it needs the order.
        int chain = chainedAfterFirst(ops);
        if (chain > 0 && (nodes instanceof ClusterNodes || ops.size() > WRITES_PER_CALL)) {
            return writeAroundChain(ops, chain);
        }
        return writeCalls(ops);
    }

    private static int chainedAfterFirst(List<WriteOp> ops) {
        for (int i = 1; i < ops.size(); i++) {
            if (ops.get(i).chained()) {
                return i;
            }
        }
        return -1;
    }

    /**
     * A batch whose chain one function call cannot check (it spans slots or calls): the writes
     * before the first chained one, then, once they are answered, the rest (its chained writes
     * made only if the unchained ones before all succeeded, else answered with the record's
     * current version).
     */
    private CompletableFuture<List<WriteResult>> writeAroundChain(List<WriteOp> ops, int chain) {
        return writeCalls(ops.subList(0, chain)).thenCompose(head -> {
            List<WriteOp> rest = ops.subList(chain, ops.size());
            boolean intact = true;
            for (int i = 0; i < head.size(); i++) {
                intact &= ops.get(i).chained() || head.get(i).written();
            }
            return (intact ? writeAfterIntactHead(rest) : brokenChain(rest)).thenApply(tail -> joined(head, tail));
        });
    }

    /**
     * The rest of a batch whose unchained writes so far all succeeded: its leading chained
     * writes depend on nothing more, so they go in as few calls as unchained ones would (one per
     * {@value #WRITES_PER_CALL} or per slot, not one each), beside the writes after them, whose
     * chain is checked from there on.
     */
    private CompletableFuture<List<WriteResult>> writeAfterIntactHead(List<WriteOp> rest) {
        int free = 0;
        while (free < rest.size() && rest.get(free).chained()) {
            free++;
        }
        if (free == rest.size()) {
            return writeCalls(rest);
        }
        CompletableFuture<List<WriteResult>> after = writeAllAsync(rest.subList(free, rest.size()));
        return writeCalls(rest.subList(0, free)).thenCombine(after, RedisRecordStore::joined);
    }

    private static List<WriteResult> joined(List<WriteResult> first, List<WriteResult> then) {
        List<WriteResult> all = new ArrayList<>(first.size() + then.size());
        all.addAll(first);
        all.addAll(then);
        return all;
    }

    /** {@code ops} after a chain broke: the unchained ones written, the chained ones left as they are. */
    private CompletableFuture<List<WriteResult>> brokenChain(List<WriteOp> ops) {
        List<WriteOp> unchained = new ArrayList<>();
        List<RecordKey> chainedKeys = new ArrayList<>();
        for (WriteOp op : ops) {
            if (op.chained()) {
                chainedKeys.add(op.key());
            } else {
                unchained.add(op);
            }
        }
        return writeCalls(unchained).thenCombine(getAllAsync(chainedKeys), (written, current) -> {
            List<WriteResult> out = new ArrayList<>(ops.size());
            int w = 0;
            int c = 0;
            for (WriteOp op : ops) {
                if (op.chained()) {
                    Versioned v = current.get(c++);
                    out.add(new WriteResult.Conflict(v == null ? 0 : v.version()));
                } else {
                    out.add(written.get(w++));
                }
            }
            return out;
        });
    }

    /** The writes in as few function calls as the deployment allows; a chain is checked within each call. */
    private CompletableFuture<List<WriteResult>> writeCalls(List<WriteOp> ops) {
        if (ops.isEmpty()) {
            return CompletableFuture.completedFuture(List.of());
        }
        Map<Integer, List<Integer>> groups = new LinkedHashMap<>();
        List<byte[]> recordKeys = new ArrayList<>(ops.size());
        List<Integer> slots = new ArrayList<>(ops.size());
        boolean cluster = nodes instanceof ClusterNodes;
        for (int i = 0; i < ops.size(); i++) {
            byte[] recordKey = RedisKeys.recordKey(ops.get(i).key());
            int slot = cluster ? RedisKeys.slot(recordKey) : 0; // a standalone server owns every slot
            recordKeys.add(recordKey);
            slots.add(slot);
            int group = cluster ? slot : -1 - i / WRITES_PER_CALL;
            groups.computeIfAbsent(group, g -> new ArrayList<>()).add(i);
        }
        boolean direct = callsDirectly();
        List<PrimaryWriter.SlotWrite<List<Object>>> calls = new ArrayList<>(groups.size());
        List<List<byte[]>> directCalls = new ArrayList<>(groups.size());
        List<List<Integer>> members = new ArrayList<>(groups.values());
        for (List<Integer> member : members) {
            List<WriteOp> groupOps = new ArrayList<>(member.size());
            List<byte[]> groupKeys = new ArrayList<>(member.size());
            List<byte[]> versionKeys = new ArrayList<>(member.size());
            for (int i : member) {
                groupOps.add(ops.get(i));
                groupKeys.add(recordKeys.get(i));
                // One server holds every counter: one counter for all its writes, read and saved once per call.
                versionKeys.add(RedisKeys.versionKey(slots.get(i)));
            }
            if (direct) {
                directCalls.add(RedisFunctions.writeArgs(groupOps, groupKeys, versionKeys));
            } else {
                calls.add(new PrimaryWriter.SlotWrite<>(slots.get(member.get(0)),
                        () -> RedisFunctions.writeCommand(groupOps, groupKeys, versionKeys)));
            }
        }
        if (direct) {
            try {
                return CompletableFuture.completedFuture(results(ops.size(), members, this.direct.writeCalls(directCalls)));
            } catch (RuntimeException e) {
                return CompletableFuture.failedFuture(RedisErrors.translate(e));
            }
        }
        return RedisErrors.translated(writer.writeAll(calls).thenApply(replies -> results(ops.size(), members, replies)));
    }

    /** The results of {@code count} writes in request order, from each group's replies. */
    private static List<WriteResult> results(int count, List<List<Integer>> members, List<List<Object>> replies) {
        WriteResult[] results = new WriteResult[count];
        for (int g = 0; g < members.size(); g++) {
            List<WriteResult> decoded = RedisFunctions.decodeReplies(replies.get(g), members.get(g).size());
            for (int j = 0; j < decoded.size(); j++) {
                results[members.get(g).get(j)] = decoded.get(j);
            }
        }
        return List.of(results);
    }

    @Override
    public CompletableFuture<Long> incrementAsync(RecordKey counter, long delta, long floor) {
        byte[] key = RedisKeys.counterKey(counter);
        return RedisErrors.translated(writer.write(new PrimaryWriter.SlotWrite<>(RedisKeys.slot(key),
                () -> floor == NO_FLOOR ? RedisFunctions.incrementCommand(key, delta)
                        : RedisFunctions.incrementCommand(key, delta, floor))));
    }

    @Override
    public CompletableFuture<List<StoredRecord>> scanAsync(String domain, KeyRange range, int limit) {
        Domains.check(domain);
        return RedisErrors.translated(scanner.scan(domain, range, limit));
    }

    @Override
    public CompletableFuture<Long> purgeAsync(Set<String> domains) {
        domains.forEach(Domains::check);
        return RedisErrors.translated(scanner.purge(domains));
    }

    @Override
    public String describe() {
        return config.describe();
    }

    /** Closes the connections; calls still in flight fail with STORE_UNAVAILABLE. Idempotent. */
    @Override
    public void close() {
        if (closed.compareAndSet(false, true)) {
            if (direct != null) {
                direct.close();
            }
            nodes.close();
        }
    }

    // The blocking helpers, guarded: blocking a Lettuce thread would stop the very answer awaited.

    @Override
    public Versioned get(String domain, byte[] key) {
        checkNotOnEventLoop();
        return RecordStore.super.get(domain, key);
    }

    @Override
    public List<Versioned> getAll(List<RecordKey> keys) {
        checkNotOnEventLoop();
        return RecordStore.super.getAll(keys);
    }

    @Override
    public WriteResult write(WriteOp op) {
        checkNotOnEventLoop();
        return RecordStore.super.write(op);
    }

    @Override
    public List<WriteResult> writeAll(List<WriteOp> ops) {
        checkNotOnEventLoop();
        return RecordStore.super.writeAll(ops);
    }

    @Override
    public long increment(String domain, byte[] key, long delta) {
        checkNotOnEventLoop();
        return RecordStore.super.increment(domain, key, delta);
    }

    @Override
    public long increment(String domain, byte[] key, long delta, long floor) {
        checkNotOnEventLoop();
        return RecordStore.super.increment(domain, key, delta, floor);
    }

    @Override
    public List<StoredRecord> scan(String domain, KeyRange range, int limit) {
        checkNotOnEventLoop();
        return RecordStore.super.scan(domain, range, limit);
    }

    @Override
    public long purge(Set<String> domains) {
        checkNotOnEventLoop();
        return RecordStore.super.purge(domains);
    }

    private CompletableFuture<Versioned> read(RecordKey key) {
        return nodes.routed().get(RedisKeys.recordKey(key)).toCompletableFuture().thenApply(RedisKeys::decodeRecord);
    }


    /** Netty's event-loop threads (Lettuce's included) are FastThreadLocalThreads; see Netty's DefaultPromise.checkDeadLock. */
    private static void checkNotOnEventLoop() {
        if (Thread.currentThread() instanceof FastThreadLocalThread) {
            throw new IllegalStateException("blocking record store call on a Netty event-loop thread ("
                    + Thread.currentThread().getName() + ") would deadlock; use the *Async methods there");
        }
    }
}
