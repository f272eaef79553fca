package io.tell.store.redis;

import io.tell.store.redis.process.RedisClusterProcesses;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * One real 3-primary + 3-replica Redis Cluster per test class, on free loopback ports:
 * {@code @RegisterExtension static final RedisClusterExtension CLUSTER = new RedisClusterExtension();}
 */
public final class RedisClusterExtension implements BeforeAllCallback, AfterAllCallback {
    private RedisClusterProcesses cluster;

    @Override
    public void beforeAll(ExtensionContext context) {
        cluster = RedisClusterProcesses.start();
    }

    @Override
    public void afterAll(ExtensionContext context) {
        if (cluster != null) {
            cluster.close();
            cluster = null;
        }
    }

    public RedisClusterProcesses cluster() {
        if (cluster == null) {
            throw new IllegalStateException("cluster not started: register the extension on a static field");
        }
        return cluster;
    }
}
