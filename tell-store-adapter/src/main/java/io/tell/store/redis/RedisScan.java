package io.tell.store.redis;

import io.lettuce.core.KeyScanCursor;
import io.lettuce.core.ScanArgs;
import io.lettuce.core.ScanCursor;
import io.lettuce.core.api.async.RedisAsyncCommands;
import io.lettuce.core.api.StatefulRedisConnection;
import io.tell.store.KeyRange;
import io.tell.store.StoredRecord;
import io.tell.store.Versioned;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.LongAdder;

/**
 * Walks over the keyspace. A domain scan: SCAN with a MATCH on the domain's key prefix on every
 * primary, keep the keys inside the range, sort them as unsigned bytes, then GET them
 * (pipelined) until the limit is reached. Redis keeps no order, so a scan costs O(size of the
 * domain) whatever its range or limit: fine for OLAP sweeps and tests, not for point lookups.
 * A purge: one SCAN over every primary for all the domains at once, unlinking each page's keys
 * of those domains before the next page is asked for.
 */
final class RedisScan {
    private static final long KEYS_PER_SCAN_CALL = 1000;
    private static final byte[] TELL_KEYS = "tell:[rc]:*".getBytes(StandardCharsets.US_ASCII);

    private final RedisNodes nodes;

    RedisScan(RedisNodes nodes) {
        this.nodes = nodes;
    }

    CompletableFuture<List<StoredRecord>> scan(String domain, KeyRange range, int limit) {
        if (limit <= 0 || range.from() != null && range.to() != null
                && Arrays.compareUnsigned(range.from(), range.to()) >= 0) {
            return CompletableFuture.completedFuture(List.of());
        }
        byte[] prefix = RedisKeys.domainPrefix(domain);
        ScanArgs args = ScanArgs.Builder.matches(RedisKeys.scanPattern(domain)).limit(KEYS_PER_SCAN_CALL);
        // SCAN may return a key twice, so collect into a set; sorted as the result must be.
        TreeSet<byte[]> keys = new TreeSet<>(Arrays::compareUnsigned);
        return everyPrimary(args, (node, page) -> {
            for (byte[] redisKey : page) {
                byte[] key = Arrays.copyOfRange(redisKey, prefix.length, redisKey.length);
                if (range.contains(key)) {
                    synchronized (keys) {
                        keys.add(key);
                    }
                }
            }
            return CompletableFuture.completedFuture(null);
        }).thenCompose(v -> fetch(prefix, new ArrayList<>(keys), 0, limit, new ArrayList<>()));
    }

    /** Unlinks every record and counter of {@code domains}; completes with the number of records unlinked. */
    CompletableFuture<Long> purge(Set<String> domains) {
        if (domains.isEmpty()) {
            return CompletableFuture.completedFuture(0L);
        }
        ScanArgs args = ScanArgs.Builder.matches(TELL_KEYS).limit(KEYS_PER_SCAN_CALL);
        LongAdder records = new LongAdder();
        return everyPrimary(args, (node, page) -> {
            List<CompletableFuture<Long>> unlinks = new ArrayList<>();
            for (byte[] redisKey : page) {
                String domain = RedisKeys.domainOf(redisKey);
                if (domain != null && domains.contains(domain)) {
                    // One key per UNLINK: in a cluster a multi-key UNLINK must stay in one slot.
                    CompletableFuture<Long> unlink = node.unlink(redisKey).toCompletableFuture();
                    if (RedisKeys.isRecordKey(redisKey)) {
                        unlink = unlink.thenApply(n -> {
                            records.add(n);
                            return n;
                        });
                    }
                    unlinks.add(unlink);
                }
            }
            return CompletableFuture.allOf(unlinks.toArray(CompletableFuture[]::new));
        }).thenApply(v -> records.sum());
    }

    /** What a walk does with one page of keys of one primary; the next page is asked for when it completes. */
    private interface PageHandler {
        CompletableFuture<Void> handle(RedisAsyncCommands<byte[], byte[]> node, List<byte[]> keys);
    }

    /** Walks the keyspace of every primary at once, one page at a time each. */
    private CompletableFuture<Void> everyPrimary(ScanArgs args, PageHandler handler) {
        return nodes.primaries().thenCompose(primaries -> {
            List<CompletableFuture<Void>> walks = new ArrayList<>();
            for (StatefulRedisConnection<byte[], byte[]> primary : primaries) {
                walks.add(walk(primary.async(), args, ScanCursor.INITIAL, handler));
            }
            return CompletableFuture.allOf(walks.toArray(CompletableFuture[]::new));
        });
    }

    private CompletableFuture<Void> walk(RedisAsyncCommands<byte[], byte[]> node, ScanArgs args, ScanCursor cursor,
            PageHandler handler) {
        return node.scan(cursor, args).toCompletableFuture().thenCompose((KeyScanCursor<byte[]> page) ->
                handler.handle(node, page.getKeys()).thenCompose(v -> page.isFinished()
                        ? CompletableFuture.completedFuture(null) : walk(node, args, page, handler)));
    }

    /** Reads keys from {@code from} on, in rounds of one pipelined batch, skipping ones deleted since the SCAN. */
    private CompletableFuture<List<StoredRecord>> fetch(byte[] prefix, List<byte[]> keys, int from, int limit,
            List<StoredRecord> out) {
        int need = limit - out.size();
        if (need <= 0 || from >= keys.size()) {
            return CompletableFuture.completedFuture(out);
        }
        int to = (int) Math.min(keys.size(), (long) from + need);
        List<CompletableFuture<byte[]>> reads = new ArrayList<>(to - from);
        for (int i = from; i < to; i++) {
            reads.add(nodes.routed().get(RedisKeys.concat(prefix, keys.get(i))).toCompletableFuture());
        }
        return CompletableFuture.allOf(reads.toArray(CompletableFuture[]::new)).thenCompose(v -> {
            for (int i = from; i < to; i++) {
                Versioned record = RedisKeys.decodeRecord(reads.get(i - from).join());
                if (record != null) {
                    out.add(new StoredRecord(keys.get(i), record.value(), record.version()));
                }
            }
            return fetch(prefix, keys, to, limit, out);
        });
    }
}
