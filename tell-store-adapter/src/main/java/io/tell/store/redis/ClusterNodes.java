package io.tell.store.redis;

import io.lettuce.core.RedisConnectionStateListener;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import io.lettuce.core.cluster.models.partitions.RedisClusterNode;
import io.lettuce.core.codec.ByteArrayCodec;
import io.tell.store.redis.RedisStoreConfig.Address;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A Redis Cluster through Lettuce's cluster client. Node connections come from the cluster
 * connection's own pool (keyed by host and port), so a write sent to a slot's primary here
 * shares the connection Lettuce uses for routed commands to that node.
 */
final class ClusterNodes implements RedisNodes {
    private static final long MIN_REFRESH_INTERVAL_NANOS = 200_000_000L;

    private final RedisClusterClient client;
    private final StatefulRedisClusterConnection<byte[], byte[]> connection;
    private final AtomicLong lastRefresh = new AtomicLong(System.nanoTime() - MIN_REFRESH_INTERVAL_NANOS);

    private ClusterNodes(RedisClusterClient client, StatefulRedisClusterConnection<byte[], byte[]> connection) {
        this.client = client;
        this.connection = connection;
    }

    /** Discovers the topology and connects (blocking, bounded by the timeout). */
    static ClusterNodes connect(RedisStoreConfig config, RedisConnectionStateListener listener) {
        List<RedisURI> seeds = new ArrayList<>();
        for (Address a : config.hosts()) {
            seeds.add(LettuceSetup.uri(config, a));
        }
        RedisClusterClient client = RedisClusterClient.create(LettuceSetup.resources(), seeds);
        client.setOptions(LettuceSetup.clusterOptions(config));
        client.addListener(listener);
        return LettuceSetup.connectOrShutdown(client, c -> new ClusterNodes(c, c.connect(ByteArrayCodec.INSTANCE)));
    }

    @Override
    public RedisClusterAsyncCommands<byte[], byte[]> routed() {
        return connection.async();
    }

    @Override
    public Address primaryOf(int slot) {
        RedisClusterNode primary = connection.getPartitions().getMasterBySlot(slot);
        if (primary == null) {
            topologyChanged();
            throw new RedisErrors.NoPrimary(slot);
        }
        RedisURI uri = primary.getUri();
        return new Address(uri.getHost(), uri.getPort());
    }

    @Override
    public CompletableFuture<StatefulRedisConnection<byte[], byte[]>> connection(Address node) {
        return connection.getConnectionAsync(node.host(), node.port());
    }

    @Override
    public CompletableFuture<List<StatefulRedisConnection<byte[], byte[]>>> primaries() {
        List<CompletableFuture<StatefulRedisConnection<byte[], byte[]>>> futures = new ArrayList<>();
        for (RedisClusterNode node : connection.getPartitions()) {
            if (node.is(RedisClusterNode.NodeFlag.UPSTREAM) && !node.getSlots().isEmpty()) {
                futures.add(connection(new Address(node.getUri().getHost(), node.getUri().getPort())));
            }
        }
        return CompletableFuture.allOf(futures.toArray(CompletableFuture[]::new))
                .thenApply(v -> futures.stream().map(CompletableFuture::join).toList());
    }

    /** Asks Lettuce to reload the topology, at most every 200 ms however many calls hint at it. */
    @Override
    public void topologyChanged() {
        long now = System.nanoTime();
        long last = lastRefresh.get();
        if (now - last >= MIN_REFRESH_INTERVAL_NANOS && lastRefresh.compareAndSet(last, now)) {
            client.refreshPartitionsAsync();
        }
    }

    @Override
    public void close() {
        connection.close();
        client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
    }
}
