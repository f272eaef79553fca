package io.tell.store.redis;

import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisConnectionStateListener;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import io.lettuce.core.codec.ByteArrayCodec;
import io.tell.store.redis.RedisStoreConfig.Address;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/** One standalone server: every command goes over one auto-reconnecting connection. */
final class StandaloneNodes implements RedisNodes {
    private final RedisClient client;
    private final StatefulRedisConnection<byte[], byte[]> connection;
    private final Address address;

    private StandaloneNodes(RedisClient client, StatefulRedisConnection<byte[], byte[]> connection, Address address) {
        this.client = client;
        this.connection = connection;
        this.address = address;
    }

    /** Connects (blocking, bounded by the timeout); throws a Lettuce exception when the server cannot be reached. */
    static StandaloneNodes connect(RedisStoreConfig config, RedisConnectionStateListener listener) {
        Address address = config.hosts().get(0);
        RedisClient client = RedisClient.create(LettuceSetup.resources(), LettuceSetup.uri(config, address));
        client.setOptions(LettuceSetup.clientOptions(config));
        client.addListener(listener);
        return LettuceSetup.connectOrShutdown(client, c -> new StandaloneNodes(c, c.connect(ByteArrayCodec.INSTANCE), address));
    }

    @Override
    public RedisClusterAsyncCommands<byte[], byte[]> routed() {
        return connection.async();
    }

    @Override
    public Address primaryOf(int slot) {
        return address;
    }

    @Override
    public CompletableFuture<StatefulRedisConnection<byte[], byte[]>> connection(Address node) {
        return CompletableFuture.completedFuture(connection);
    }

    @Override
    public CompletableFuture<List<StatefulRedisConnection<byte[], byte[]>>> primaries() {
        return CompletableFuture.completedFuture(List.of(connection));
    }

    @Override
    public void topologyChanged() {
        // One server, no topology.
    }

    @Override
    public void close() {
        connection.close();
        client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
    }
}
