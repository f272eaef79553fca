package io.tell.store.redis;

import io.tell.store.redis.process.RedisProcess;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * One real {@code redis-server} per test class, on a free loopback port, started before the
 * class's tests and stopped after them:
 * {@code @RegisterExtension static final RedisServerExtension REDIS = new RedisServerExtension();}
 */
public final class RedisServerExtension implements BeforeAllCallback, AfterAllCallback {
    private RedisProcess redis;

    @Override
    public void beforeAll(ExtensionContext context) {
        redis = RedisProcess.start();
    }

    @Override
    public void afterAll(ExtensionContext context) {
        if (redis != null) {
            redis.close();
            redis = null;
        }
    }

    public RedisProcess process() {
        if (redis == null) {
            throw new IllegalStateException("redis-server not started: register the extension on a static field");
        }
        return redis;
    }

    public String url() {
        return process().url();
    }
}
