package io.tell.store;

import io.tell.error.TellException;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

/**
 * A key-value record store with load-link / store-conditional: every read returns the
 * record's version, and every write can be made conditional on it.
 *
 * <p>Contract (checked for every backend by the shared contract test suite):
 * <ul>
 *   <li><b>Versions never repeat.</b> Every successful write gives the record a version
 *       strictly greater than any version that key has ever had, also after a delete and
 *       re-insert. A write conditional on version {@code v} therefore never succeeds against
 *       a different value that happens to carry {@code v} again (no ABA).</li>
 *   <li><b>Reads</b> return the value and its version, or {@code null} when absent.</li>
 *   <li><b>Conditional writes</b> return {@link WriteResult.Written} with the new version or
 *       {@link WriteResult.Conflict} with the current one; a conflict is a value, not an
 *       exception, and changes nothing.</li>
 *   <li><b>Checks</b> ({@link WriteOp#check}) go in write batches and change nothing: a
 *       satisfied check answers {@link WriteResult.Written} with the record's current version
 *       (0 when absent), a failed one {@link WriteResult.Conflict}.</li>
 *   <li><b>Batches</b> ({@link #getAllAsync}, {@link #writeAllAsync}) cost as few round trips as
 *       the backend allows; they are not atomic as a whole: each element succeeds or
 *       conflicts on its own, and results come back in request order.</li>
 *   <li><b>Counters</b> live beside records (a counter and a record may share a key without
 *       touching each other) and are atomic. A backend that fails over may lose increments it
 *       acknowledged (e.g. Redis replication is asynchronous), so a counter can go back; a
 *       caller that must never see a value twice passes a <i>floor</i> above every value it
 *       may have handed out ({@link #incrementAsync(RecordKey, long, long)}): a journaled
 *       highest value for dense counters, {@link #clockFloor()} for sparse ones.</li>
 *   <li><b>Failures</b> (unreachable, timeout, lost connection) complete the future with a
 *       {@link TellException}, retriable or not, translated from the backend in one place.
 *       After a timeout the effect of a write is unknown; callers re-read to find out.</li>
 * </ul>
 * Replication and durability belong to the backend.
 */
public interface RecordStore extends AutoCloseable {

    /** Reads one record; completes with {@code null} when it is absent. */
    CompletableFuture<Versioned> getAsync(RecordKey key);

    /** Reads many records in one go; the list has one entry per key, {@code null} where absent. */
    CompletableFuture<List<Versioned>> getAllAsync(List<RecordKey> keys);

    /**
     * Reads {@code keys} as {@link #getAllAsync} does, the first of them a pointer, and after
     * them the record of {@code domain} whose key is the pointer's value (null when the pointer
     * is absent or empty): one more entry at the end. A unique key's claim names its row this way, so a
     * point read by key costs one call where the store can follow the pointer itself
     * ({@link #followsInOneCall}), two otherwise. The pointed record is read after the pointer.
     */
    default CompletableFuture<List<Versioned>> getAllFollowingAsync(List<RecordKey> keys, String domain) {
        return getAllAsync(keys).thenCompose(got -> {
            Versioned pointer = got.get(0);
            CompletableFuture<Versioned> pointed = pointer == null || pointer.value().length == 0
                    ? CompletableFuture.completedFuture(null) : getAsync(new RecordKey(domain, pointer.value()));
            return pointed.thenApply(v -> {
                List<Versioned> out = new java.util.ArrayList<>(got);
                out.add(v);
                return out;
            });
        });
    }

    /** True when {@link #getAllFollowingAsync} costs one round trip (the store follows the pointer itself). */
    default boolean followsInOneCall() {
        return false;
    }

    /** One conditional write (put, insert-if-absent or delete). */
    CompletableFuture<WriteResult> writeAsync(WriteOp op);

    /** Many independent conditional writes in one go; one result per op, in order. */
    CompletableFuture<List<WriteResult>> writeAllAsync(List<WriteOp> ops);

    /** No floor: {@link #incrementAsync(RecordKey, long, long)} with it is a plain increment. */
    long NO_FLOOR = Long.MIN_VALUE;

    /** Adds {@code delta} to a counter (absent counts as 0) and returns the new value. */
    default CompletableFuture<Long> incrementAsync(RecordKey counter, long delta) {
        return incrementAsync(counter, delta, NO_FLOOR);
    }

    /**
     * Atomically raises a counter (absent counts as 0) to {@code floor} if it is below it, then
     * adds {@code delta}, and returns the new value: at least {@code floor + delta} however many
     * increments the store lost. Values and floors stay below 2^53.
     */
    CompletableFuture<Long> incrementAsync(RecordKey counter, long delta, long floor);

    /**
     * A floor for counters whose values may be sparse (row ids, tree node ids): the wall clock in
     * microseconds. Any counter that always increments with it climbs past every value it handed
     * out before a fail-over that lost increments, unless the clocks of the processes involved
     * are further apart than the time since those values were handed out. Dense counters (tids)
     * cannot use it.
     */
    static long clockFloor() {
        return System.currentTimeMillis() * 1000;
    }

    /**
     * The records of {@code domain} inside {@code range}, in unsigned key order, at most
     * {@code limit} of them. A scan is not a snapshot: records changed meanwhile may appear
     * in either state.
     */
    CompletableFuture<List<StoredRecord>> scanAsync(String domain, KeyRange range, int limit);

    /**
     * Deletes every record and counter of {@code domains} (storage nobody uses any more, such as
     * a dropped table's rows and index trees) and completes with the number of records deleted.
     * One walk for all of them, however many domains and records (RAMCloud's drop of a table).
     * Unconditional and not atomic: a write that races with it may survive it, so a caller
     * purges only domains nobody writes to any more and repeats until a purge deletes nothing.
     */
    CompletableFuture<Long> purgeAsync(Set<String> domains);

    /**
     * True when a batch sent from the calling thread takes effect element by element in request
     * order: each read or write of a {@link #getAllAsync} or {@link #writeAllAsync} happens after
     * the ones before it in the list (one server, one connection, one command after another).
     * Callers that need an order within a batch (a write that must follow another) may then
     * send one batch instead of two. False by default: a store spread over several nodes
     * applies a batch's parts in parallel.
     */
    default boolean ordersBatches() {
        return false;
    }

    /** A short name for logs and results, e.g. {@code mem} or {@code redis://127.0.0.1:6379}. */
    String describe();

    @Override
    void close();

    // Blocking helpers, for tests and tools; they throw the TellException a failure carries.

    default Versioned get(String domain, byte[] key) {
        return TellException.join(getAsync(new RecordKey(domain, key)));
    }

    default List<Versioned> getAll(List<RecordKey> keys) {
        return TellException.join(getAllAsync(keys));
    }

    default WriteResult write(WriteOp op) {
        return TellException.join(writeAsync(op));
    }

    default List<WriteResult> writeAll(List<WriteOp> ops) {
        return TellException.join(writeAllAsync(ops));
    }

    default long increment(String domain, byte[] key, long delta) {
        return TellException.join(incrementAsync(new RecordKey(domain, key), delta));
    }

    default long increment(String domain, byte[] key, long delta, long floor) {
        return TellException.join(incrementAsync(new RecordKey(domain, key), delta, floor));
    }

    default List<StoredRecord> scan(String domain, KeyRange range, int limit) {
        return TellException.join(scanAsync(domain, range, limit));
    }

    default long purge(Set<String> domains) {
        return TellException.join(purgeAsync(domains));
    }
}
