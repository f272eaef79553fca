package io.tell.store.redis;

import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import io.tell.store.redis.RedisStoreConfig.Address;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * Where commands go: one standalone server, or the nodes of a Redis Cluster. The store
 * sends reads through {@link #routed()} (Lettuce follows MOVED/ASK there) and writes to the
 * connection of the slot's primary, so a WAIT on that same connection covers them.
 */
sealed interface RedisNodes permits StandaloneNodes, ClusterNodes {

    /** Key-routed commands; in a cluster Lettuce picks the node and follows redirects. */
    RedisClusterAsyncCommands<byte[], byte[]> routed();

    /** The primary that owns {@code slot} in the current view; throws {@link RedisErrors.NoPrimary} if none. */
    Address primaryOf(int slot);

    /** The (shared, auto-reconnecting) connection to a node. */
    CompletableFuture<StatefulRedisConnection<byte[], byte[]>> connection(Address node);

    /** Connections to every primary, for SCAN and FUNCTION LOAD. */
    CompletableFuture<List<StatefulRedisConnection<byte[], byte[]>>> primaries();

    /** A hint that the topology may have changed (a redirect, a dead node): refresh it soon. */
    void topologyChanged();

    void close();
}
