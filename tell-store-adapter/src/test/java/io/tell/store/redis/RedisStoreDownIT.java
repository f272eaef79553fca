package io.tell.store.redis;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.tell.error.ErrorCode;
import io.tell.error.TellException;
import io.tell.error.TellRetriableException;
import io.tell.store.KeyRange;
import io.tell.store.RecordKey;
import io.tell.store.RecordStore;
import io.tell.store.RecordStores;
import io.tell.store.Versioned;
import io.tell.store.WriteOp;
import io.tell.store.WriteResult;
import io.tell.store.redis.process.RedisProcess;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/**
 * A standalone server that dies, freezes or drops the connection: calls fail promptly with a
 * retriable error instead of hanging, and the same store object works again once the server
 * is back, with every acknowledged write intact.
 */
class RedisStoreDownIT {
    private static final String D = "down";
    private static final Duration PROMPT = Duration.ofSeconds(3);
    private static final Set<ErrorCode> RETRIABLE_STORE_CODES = Set.of(ErrorCode.STORE_UNAVAILABLE, ErrorCode.STORE_TIMEOUT);

    private final List<AutoCloseable> cleanup = new ArrayList<>();

    @AfterEach
    void cleanUp() throws Exception {
        for (int i = cleanup.size() - 1; i >= 0; i--) {
            cleanup.get(i).close();
        }
    }

    @Test
    void aKilledServerFailsCallsPromptlyAndIsUsedAgainAfterRestartWithItsData() {
        RedisProcess redis = track(RedisProcess.builder().appendOnly(true).start());
        RecordStore store = track(RecordStores.open(redis.url() + "?timeoutMs=1000"));
        Map<String, Long> acknowledged = writeKeys(store, 50);
        long counter = store.increment(D, b("ctr"), 7);

        redis.kill();
        for (Executable call : everyKindOfCall(store)) {
            assertFailsPromptlyAndRetriably(call);
        }

        redis.restart();
        awaitUsable(store);
        assertIntact(store, acknowledged);
        assertEquals(counter + 1, store.increment(D, b("ctr"), 1));
        long highest = acknowledged.values().stream().mapToLong(Long::longValue).max().orElseThrow();
        assertTrue(store.write(WriteOp.put(D, b("k0"), b("new"), io.tell.store.Expect.ANY)).version() > highest);
    }

    @Test
    void aPausedServerTimesCallsOutAndIsUsedAgainWhenResumed() {
        RedisProcess redis = track(RedisProcess.start());
        RecordStore store = track(RecordStores.open(redis.url() + "?timeoutMs=500"));
        Map<String, Long> acknowledged = writeKeys(store, 20);

        redis.pause();
        try {
            for (Executable call : everyKindOfCall(store)) {
                TellException e = assertFailsPromptlyAndRetriably(call);
                assertEquals(ErrorCode.STORE_TIMEOUT, e.code(), e.toString());
            }
        } finally {
            redis.resume();
        }
        awaitUsable(store);
        assertIntact(store, acknowledged);
    }

    @Test
    void writesInFlightWhenTheConnectionDropsFailAtOnceAndAreNeverReplayed() throws Exception {
        RedisProcess redis = track(RedisProcess.builder().appendOnly(true).start());
        // A long timeout: the writes must fail because the connection dropped, not because time ran out.
        RecordStore store = track(RecordStores.open(redis.url() + "?timeoutMs=8000"));
        Map<String, Long> acknowledged = writeKeys(store, 5);

        redis.pause();
        // Each from its own thread: a direct write blocks its caller until answered.
        java.util.concurrent.ExecutorService callers = java.util.concurrent.Executors.newFixedThreadPool(5);
        cleanup.add(callers::shutdownNow);
        List<CompletableFuture<WriteResult>> inFlight = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            WriteOp op = WriteOp.insert(D, b("in-flight-" + i), b("x"));
            inFlight.add(CompletableFuture.supplyAsync(() -> store.write(op), callers));
        }
        Thread.sleep(200);
        long killedAt = System.nanoTime();
        redis.kill(); // the server never read the writes
        for (CompletableFuture<WriteResult> write : inFlight) {
            ExecutionException e = assertThrows(ExecutionException.class, write::get);
            TellRetriableException cause = assertInstanceOf(TellRetriableException.class, e.getCause());
            assertEquals(ErrorCode.STORE_UNAVAILABLE, cause.code(), cause.toString());
        }
        assertTrue(System.nanoTime() - killedAt < PROMPT.toNanos(), "the writes should fail when the connection drops");

        redis.restart();
        awaitUsable(store);
        Thread.sleep(300); // time for a replay, if Lettuce were to replay them
        for (int i = 0; i < 5; i++) {
            assertNull(store.get(D, b("in-flight-" + i)), "a failed write must not be replayed after reconnecting");
        }
        assertIntact(store, acknowledged);
    }

    @Test
    void aWriteNotAcknowledgedByTheRequiredReplicasFailsRetriably() {
        RedisProcess primary = track(RedisProcess.start());
        RedisProcess replica = track(RedisProcess.builder()
                .option("replicaof", primary.host() + " " + primary.port()).start());
        long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        while (!((String) replica.call("INFO", "replication")).contains("master_link_status:up")) {
            assertTrue(System.nanoTime() < deadline, "replica never synced");
            RedisProcess.sleep(50);
        }
        // Generous for the write that must reach the replica (a loaded machine), still well inside PROMPT.
        RecordStore store = track(RecordStores.open(primary.url() + "?replicas=1&timeoutMs=2000"));
        RecordStore wantsTwo = track(RecordStores.open(primary.url() + "?replicas=2&timeoutMs=600"));
        assertTrue(store.write(WriteOp.insert(D, b("k"), b("v"))).written());
        assertEquals(9L, replica.call("STRLEN", "tell:r:" + D + ":k"), "an acknowledged write is on the replica");

        TellException tooFew = assertFailsPromptlyAndRetriably(() -> wantsTwo.write(WriteOp.insert(D, b("k2"), b("v"))));
        assertEquals(ErrorCode.STORE_TIMEOUT, tooFew.code());
        replica.kill();
        TellException none = assertFailsPromptlyAndRetriably(() -> store.writeAll(List.of(
                WriteOp.insert(D, b("k3"), b("v")), WriteOp.insert(D, b("k4"), b("v")))));
        assertEquals(ErrorCode.STORE_TIMEOUT, none.code());
        assertTrue(none.getMessage().contains("0 of 1"), none.getMessage());
    }

    @Test
    void openingAStoreOnADeadServerFailsPromptlyAndRetriably() {
        int port = RedisProcess.freePortPair();
        TellException e = assertFailsPromptlyAndRetriably(() -> RecordStores.open("redis://127.0.0.1:" + port + "?timeoutMs=1000"));
        assertEquals(ErrorCode.STORE_UNAVAILABLE, e.code());
    }

    private static List<Executable> everyKindOfCall(RecordStore store) {
        return List.of(
                () -> store.get(D, b("k0")),
                () -> store.getAll(List.of(new RecordKey(D, b("k0")), new RecordKey(D, b("k1")))),
                () -> store.write(WriteOp.insert(D, b("during"), b("x"))),
                () -> store.writeAll(List.of(WriteOp.insert(D, b("during1"), b("x")), WriteOp.insert(D, b("during2"), b("y")))),
                () -> store.increment(D, b("ctr"), 1000),
                () -> store.scan(D, KeyRange.ALL, 10));
    }

    private static TellException assertFailsPromptlyAndRetriably(Executable call) {
        return assertTimeoutPreemptively(PROMPT, () -> {
            try {
                call.execute();
            } catch (TellException e) {
                assertInstanceOf(TellRetriableException.class, e, e.toString());
                assertTrue(RETRIABLE_STORE_CODES.contains(e.code()), e.toString());
                return e;
            }
            return fail("the call succeeded against a server that is down");
        });
    }

    private static Map<String, Long> writeKeys(RecordStore store, int n) {
        Map<String, Long> versions = new TreeMap<>();
        for (int i = 0; i < n; i++) {
            versions.put("k" + i, store.write(WriteOp.insert(D, b("k" + i), b("v" + i))).version());
        }
        return versions;
    }

    private static void assertIntact(RecordStore store, Map<String, Long> acknowledged) {
        acknowledged.forEach((key, version) -> {
            Versioned read = store.get(D, b(key));
            assertArrayEquals(b("v" + key.substring(1)), read.value(), key);
            assertEquals(version, read.version(), key);
        });
    }

    /** Retries a read until the store answers again (Lettuce reconnects in the background). */
    private static void awaitUsable(RecordStore store) {
        long deadline = System.nanoTime() + Duration.ofSeconds(15).toNanos();
        while (true) {
            try {
                // Reads and writes reconnect apart (direct reads, Lettuce): both must work again.
                store.get(D, b("k0"));
                store.increment(D, b("probe"), 1);
                return;
            } catch (TellRetriableException e) {
                if (System.nanoTime() > deadline) {
                    throw e;
                }
                RedisProcess.sleep(50);
            }
        }
    }

    private <T extends AutoCloseable> T track(T resource) {
        cleanup.add(resource);
        return resource;
    }


    private static byte[] b(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
