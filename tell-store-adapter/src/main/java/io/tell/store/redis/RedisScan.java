package io.tell.store.redis;

import io.lettuce.core.KeyScanCursor;
import io.lettuce.core.ScanArgs;
import io.lettuce.core.ScanCursor;
import io.lettuce.core.api.async.RedisAsyncCommands;
import io.lettuce.core.api.StatefulRedisConnection;
import io.tell.store.KeyRange;
import io.tell.store.StoredRecord;
import io.tell.store.Versioned;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;

/**
 * A domain scan: SCAN with a MATCH on the domain's key prefix on every primary, keep the keys
 * inside the range, sort them as unsigned bytes, then GET them (pipelined) until the limit is
 * reached. Redis keeps no order, so a scan costs O(size of the domain) whatever its range or
 * limit: fine for OLAP sweeps and tests, not for point lookups.
 */
final class RedisScan {
    private static final long KEYS_PER_SCAN_CALL = 1000;

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
        return nodes.primaries().thenCompose(primaries -> {
            // SCAN may return a key twice, so collect into a set; sorted as the result must be.
            TreeSet<byte[]> keys = new TreeSet<>(Arrays::compareUnsigned);
            List<CompletableFuture<Void>> sweeps = new ArrayList<>();
            for (StatefulRedisConnection<byte[], byte[]> primary : primaries) {
                sweeps.add(sweep(primary.async(), args, ScanCursor.INITIAL, prefix, range, keys));
            }
            return CompletableFuture.allOf(sweeps.toArray(CompletableFuture[]::new))
                    .thenCompose(v -> fetch(prefix, new ArrayList<>(keys), 0, limit, new ArrayList<>()));
        });
    }

    /** Walks one node's keyspace, adding the user keys inside {@code range} to {@code into}. */
    private CompletableFuture<Void> sweep(RedisAsyncCommands<byte[], byte[]> node, ScanArgs args, ScanCursor cursor,
            byte[] prefix, KeyRange range, TreeSet<byte[]> into) {
        return node.scan(cursor, args).toCompletableFuture().thenCompose((KeyScanCursor<byte[]> page) -> {
            for (byte[] redisKey : page.getKeys()) {
                byte[] key = Arrays.copyOfRange(redisKey, prefix.length, redisKey.length);
                if (range.contains(key)) {
                    synchronized (into) {
                        into.add(key);
                    }
                }
            }
            return page.isFinished() ? CompletableFuture.completedFuture(null)
                    : sweep(node, args, page, prefix, range, into);
        });
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
