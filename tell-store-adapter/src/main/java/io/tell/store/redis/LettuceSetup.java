package io.tell.store.redis;

import io.lettuce.core.AbstractRedisClient;
import io.lettuce.core.ClientOptions;
import io.lettuce.core.RedisURI;
import io.lettuce.core.SocketOptions;
import io.lettuce.core.SslOptions;
import io.lettuce.core.TimeoutOptions;
import io.lettuce.core.cluster.ClusterClientOptions;
import io.lettuce.core.cluster.ClusterTopologyRefreshOptions;
import io.lettuce.core.cluster.models.partitions.RedisClusterNode;
import io.lettuce.core.resource.ClientResources;
import io.lettuce.core.resource.DefaultClientResources;
import io.lettuce.core.resource.Delay;
import io.lettuce.core.resource.Transports;
import java.io.File;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

/**
 * How Lettuce is configured for the record store, in one place.
 *
 * <p>A dead server must fail calls promptly and a returning one must be used again without
 * help: commands time out after the store's timeout, commands issued while disconnected are
 * rejected at once (never queued), and Lettuce reconnects in the background with a delay
 * capped at one second. A cluster's topology is refreshed periodically and on every adaptive
 * trigger (MOVED/ASK, repeated reconnects, unknown nodes, uncovered slots), so a fail-over is
 * noticed within about a second.
 *
 * <p>Credentials and TLS go on every node's {@link RedisURI} alike; Lettuce authenticates each
 * connection (cluster nodes it discovers included, with the seeds' settings) before using it.
 */
final class LettuceSetup {
    static final Duration PERIODIC_REFRESH = Duration.ofSeconds(5);
    static final Duration ADAPTIVE_REFRESH_MIN_INTERVAL = Duration.ofMillis(500);

    private LettuceSetup() {
    }

    /** Connects through {@code client}; if that fails, shuts the client down before rethrowing. */
    static <C extends AbstractRedisClient, T> T connectOrShutdown(C client, Function<C, T> connect) {
        for (int attempt = 1; ; attempt++) {
            try {
                return connect.apply(client);
            } catch (RuntimeException e) {
                if (attempt < 3 && handshakeRace(e)) {
                    continue;
                }
                client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
                throw e;
            }
        }
    }

    /**
     * Lettuce sometimes loses the reason a connection's handshake failed (a refused login among
     * them) to an internal race, reporting only that its handshake handler was gone; connecting
     * again gives the real answer.
     */
    private static boolean handshakeRace(Throwable e) {
        for (Throwable c = e; c != null; c = c.getCause() == c ? null : c.getCause()) {
            if (c instanceof IllegalStateException && String.valueOf(c.getMessage()).contains("HandshakeHandler")) {
                return true;
            }
        }
        return false;
    }

    /** Where and how to reach {@code node}: its address, the call timeout, the login and TLS. */
    static RedisURI uri(RedisStoreConfig config, RedisStoreConfig.Address node) {
        RedisURI.Builder uri = RedisURI.builder().withHost(node.host()).withPort(node.port())
                .withTimeout(config.timeout()).withSsl(config.tls());
        RedisStoreConfig.Login login = config.login();
        if (login != null) {
            if (login.user() == null) {
                uri.withPassword(login.password().toCharArray());
            } else {
                uri.withAuthentication(login.user(), login.password().toCharArray());
            }
        }
        return uri.build();
    }

    /**
     * Event loops and timers shared by every store in the JVM (Lettuce's threads are daemons),
     * so opening a store is cheap and many stores do not multiply threads.
     */
    static ClientResources resources() {
        return Shared.RESOURCES;
    }

    static ClientOptions clientOptions(RedisStoreConfig config) {
        return ClientOptions.builder()
                .autoReconnect(true)
                .disconnectedBehavior(ClientOptions.DisconnectedBehavior.REJECT_COMMANDS)
                .timeoutOptions(TimeoutOptions.enabled(config.timeout()))
                .socketOptions(socketOptions(config))
                .pingBeforeActivateConnection(true)
                .sslOptions(sslOptions(config))
                .build();
    }

    static ClusterClientOptions clusterOptions(RedisStoreConfig config) {
        ClusterTopologyRefreshOptions refresh = ClusterTopologyRefreshOptions.builder()
                .enablePeriodicRefresh(PERIODIC_REFRESH)
                .enableAllAdaptiveRefreshTriggers()
                .adaptiveRefreshTriggersTimeout(ADAPTIVE_REFRESH_MIN_INTERVAL)
                .refreshTriggersReconnectAttempts(2)
                .dynamicRefreshSources(true)
                .closeStaleConnections(true)
                .build();
        return ClusterClientOptions.builder()
                .autoReconnect(true)
                .disconnectedBehavior(ClientOptions.DisconnectedBehavior.REJECT_COMMANDS)
                .timeoutOptions(TimeoutOptions.enabled(config.timeout()))
                .socketOptions(socketOptions(config))
                .pingBeforeActivateConnection(true)
                .sslOptions(sslOptions(config))
                .topologyRefreshOptions(refresh)
                .maxRedirects(5)
                .validateClusterNodeMembership(true)
                // Failed nodes are left out of the view, so their slots show up as uncovered
                // (a refresh trigger) rather than as connections that can never succeed.
                .nodeFilter(node -> !(node.is(RedisClusterNode.NodeFlag.FAIL)
                        || node.is(RedisClusterNode.NodeFlag.EVENTUAL_FAIL)
                        || node.is(RedisClusterNode.NodeFlag.NOADDR)))
                .build();
    }

    /** The JVM's default trust store, or only the certificates of {@code tlsCa} when given. */
    private static SslOptions sslOptions(RedisStoreConfig config) {
        SslOptions.Builder ssl = SslOptions.builder().jdkSslProvider();
        if (config.tlsCa() != null) {
            ssl.trustManager(new File(config.tlsCa()));
        }
        return ssl.build();
    }

    private static SocketOptions socketOptions(RedisStoreConfig config) {
        return SocketOptions.builder()
                .connectTimeout(config.timeout())
                .keepAlive(true)
                .tcpNoDelay(true)
                .build();
    }

    private static final class Shared {
        static final ClientResources RESOURCES = create();

        private static ClientResources create() {
            ClientResources resources = DefaultClientResources.builder()
                    .reconnectDelay(Delay.exponential(Duration.ofMillis(20), Duration.ofSeconds(1), 2, TimeUnit.MILLISECONDS))
                    .build();
            // Lettuce reference-counts its event loops and shuts them down when the last client
            // closes; hold one reference for the JVM's lifetime so closing and reopening a store
            // does not tear down and rebuild the threads each time.
            resources.eventLoopGroupProvider().allocate(Transports.eventLoopGroupClass());
            return resources;
        }
    }
}
