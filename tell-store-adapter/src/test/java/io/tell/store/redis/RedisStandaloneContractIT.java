package io.tell.store.redis;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.netty.util.concurrent.FastThreadLocalThread;
import io.tell.error.ErrorCode;
import io.tell.error.TellException;
import io.tell.store.CountingRecordStore;
import io.tell.store.Expect;
import io.tell.store.RecordKey;
import io.tell.store.RecordStore;
import io.tell.store.RecordStoreContractTest;
import io.tell.store.RecordStores;
import io.tell.store.Versioned;
import io.tell.store.WriteOp;
import io.tell.store.WriteResult;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The record store contract against one standalone redis-server, plus what only a server can show. */
class RedisStandaloneContractIT extends RecordStoreContractTest {
    @RegisterExtension
    static final RedisServerExtension REDIS = new RedisServerExtension();

    @Override
    protected RecordStore openStore() {
        return RecordStores.open(REDIS.url());
    }

    @Test
    void describesItselfByUrl() {
        assertEquals(REDIS.url(), store.describe());
    }

    @Test
    void blockingOnAnEventLoopThreadIsRefusedNotDeadlocked() {
        store.write(WriteOp.insert(domain("d"), b("k"), b("v")));
        for (int attempt = 0; attempt < 1000; attempt++) {
            AtomicReference<Throwable> refused = new AtomicReference<>();
            AtomicBoolean onEventLoop = new AtomicBoolean();
            // An increment's answer arrives on Lettuce's event loop (reads and writes may be answered on the caller's thread).
            store.incrementAsync(new RecordKey(domain("d"), b("n")), 1).thenAccept(v -> {
                // A callback runs on the event loop unless the future was complete before it was attached.
                if (Thread.currentThread() instanceof FastThreadLocalThread) {
                    onEventLoop.set(true);
                    try {
                        store.get(domain("d"), b("k"));
                    } catch (RuntimeException e) {
                        refused.set(e);
                    }
                }
            }).join();
            if (onEventLoop.get()) {
                assertInstanceOf(IllegalStateException.class, refused.get());
                return;
            }
        }
        fail("no callback ran on an event-loop thread");
    }

    @Test
    void chainedWritesAfterAFullCallGoInBatchesNotOneByOne() {
        // 300 new records, then 300 writes chained to them: more than one call takes, so the
        // chained ones wait for the first answers, and then go in calls of many, not one each.
        String d = domain("chaincalls");
        List<WriteOp> ops = new ArrayList<>();
        for (int i = 0; i < 300; i++) {
            ops.add(WriteOp.insert(d, b("p" + i), b("v")));
        }
        for (int i = 0; i < 300; i++) {
            ops.add(WriteOp.insert(d, b("m" + i), b("v")).asChained());
        }
        REDIS.process().call("CONFIG", "RESETSTAT");
        assertTrue(store.writeAll(ops).stream().allMatch(WriteResult::written));
        String stats = String.valueOf(REDIS.process().call("INFO", "commandstats"));
        Matcher m = Pattern.compile("cmdstat_fcall:calls=(\\d+)").matcher(stats);
        assertTrue(m.find(), stats);
        assertEquals(4, Integer.parseInt(m.group(1)), "two calls for the records, two for the chained writes: " + stats);
    }

    @Test
    void aFunctionFlushedFromTheServerIsReloadedOnDemand() {
        REDIS.process().call("FUNCTION", "FLUSH");
        assertTrue(store.write(WriteOp.insert(domain("d"), b("k"), b("v"))).written());
    }

    @Test
    void aFollowingReadIsOneCallAndSurvivesAFlushedLibrary() {
        store.write(WriteOp.insert(domain("c"), b("k"), b("r1")));
        store.write(WriteOp.insert(domain("r"), b("r1"), b("row")));
        CountingRecordStore counting = new CountingRecordStore(store);
        assertTrue(counting.followsInOneCall());
        REDIS.process().call("FUNCTION", "FLUSH");
        REDIS.process().call("CONFIG", "RESETSTAT");
        List<Versioned> got = TellException.join(counting.getAllFollowingAsync(List.of(new RecordKey(domain("c"), b("k"))), domain("r")));
        assertArrayEquals(b("row"), got.get(1).value());
        assertEquals(1, counting.counts().reads());
        String stats = String.valueOf(REDIS.process().call("INFO", "commandstats"));
        assertTrue(stats.contains("cmdstat_fcall:calls=2"), "refused, then made after the library was loaded again: " + stats);
        // Commands a function runs count too: its two GETs, and no read besides.
        assertTrue(stats.contains("cmdstat_get:calls=2,") && !stats.contains("cmdstat_mget:"), stats);
    }

    @Test
    void foreignDataUnderARecordKeyIsAStoreFailureNotAHang() {
        REDIS.process().call("HSET", "tell:r:" + domain("d") + ":k", "f", "v");
        TellException e = assertThrows(TellException.class, () -> store.write(WriteOp.insert(domain("d"), b("k"), b("v"))));
        assertEquals(ErrorCode.STORE_FAILURE, e.code());
    }

    @Test
    void aBatchIsOneCallHoweverManyKeys() {
        CountingRecordStore counting = new CountingRecordStore(store);
        List<WriteOp> ops = new ArrayList<>();
        List<RecordKey> keys = new ArrayList<>();
        for (int i = 0; i < 500; i++) {
            ops.add(WriteOp.insert(domain("b"), b("k" + i), b("v" + i)));
            keys.add(new RecordKey(domain("b"), b("k" + i)));
        }
        assertTrue(counting.writeAll(ops).stream().allMatch(r -> r.written()));
        assertEquals(500, counting.getAll(keys).stream().filter(v -> v != null).count());
        assertEquals(2, counting.counts().total());
    }

    @Test
    void aKeysVersionsRiseEvenWhenItsCounterWentBack() {
        // On a standalone server every write draws from one counter; a key written before
        // under a counter that was further ahead (an older client's per-slot counter, a
        // fail-over that lost increments) still gets a higher version than it holds.
        String counter = new String(RedisKeys.versionKey(0), java.nio.charset.StandardCharsets.US_ASCII);
        long ahead = (1L << 52) - 1_000;
        REDIS.process().call("SET", counter, Long.toString(ahead));
        long first = store.write(WriteOp.insert(domain("c"), b("k"), b("v1"))).version();
        assertTrue(first > ahead, "drawn from the counter: " + first);
        REDIS.process().call("SET", counter, "0");
        WriteResult second = store.write(new WriteOp(new RecordKey(domain("c"), b("k")), b("v2"), Expect.version(first)));
        assertTrue(second.written());
        assertTrue(second.version() > first, second.version() + " after " + first);
        REDIS.process().call("SET", counter, "0"); // the other tests' versions follow the clock again
    }

    @Test
    void aHugeBatchOfReadsDoesNotTimeOutBehindItself() {
        List<WriteOp> ops = new ArrayList<>();
        List<RecordKey> keys = new ArrayList<>();
        for (int i = 0; i < 200_000; i++) {
            keys.add(new RecordKey(domain("huge"), b("k" + i)));
            if (i % 2 == 0) {
                ops.add(WriteOp.insert(domain("huge"), b("k" + i), b("v" + i)));
            }
            if (ops.size() == 2_000) {
                store.writeAll(ops);
                ops.clear();
            }
        }
        // 200,000 reads queued at once take longer than this time-out; in windows each is quick.
        try (RecordStore impatient = RecordStores.open(REDIS.url() + "?timeoutMs=300")) {
            List<io.tell.store.Versioned> read = impatient.getAll(keys);
            assertEquals(keys.size(), read.size());
            for (int i = 0; i < keys.size(); i += 997) {
                assertEquals(i % 2 == 0 ? "v" + i : null, read.get(i) == null ? null : new String(read.get(i).value()), "key " + i);
            }
        }
    }

    @Test
    void badUrlsAreConfigurationErrors() {
        for (String url : List.of("redis://", "redis://h:notaport", "redis://h:1?replicas=-1", "redis://h:1?timeoutMs=x",
                "redis://h:1?colour=red", "redis://a:1,b:2?cluster=false", "redis://h:1?cluster=maybe")) {
            TellException e = assertThrows(TellException.class, () -> RecordStores.open(url), url);
            assertEquals(ErrorCode.BAD_CONFIGURATION, e.code(), url);
        }
    }
}
