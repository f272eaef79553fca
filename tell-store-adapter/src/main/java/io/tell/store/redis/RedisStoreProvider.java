package io.tell.store.redis;

import io.tell.store.RecordStore;
import io.tell.store.RecordStoreProvider;
import io.tell.store.StoreUrl;

/**
 * Opens {@code redis://[[user]:password@]host:port[,host:port...][?cluster=true|false&replicas=N&timeoutMs=T]}
 * and its TLS form {@code rediss://…[&tlsCa=PATH]} (see {@link RedisStoreConfig}):
 * one standalone server, or Redis Cluster (the default when several hosts are given; the
 * hosts are seeds). {@code replicas=N}: a write is acknowledged only once N replicas have it
 * (WAIT), else it fails with a retriable STORE_TIMEOUT. {@code timeoutMs} (default 2000)
 * bounds every call. A malformed URL fails with BAD_CONFIGURATION, an unreachable server with
 * STORE_UNAVAILABLE, refused credentials with AUTH_FAILED.
 */
public final class RedisStoreProvider implements RecordStoreProvider {
    @Override
    public String scheme() {
        return "redis";
    }

    @Override
    public boolean accepts(String scheme) {
        return "redis".equals(scheme) || "rediss".equals(scheme);
    }

    @Override
    public RecordStore open(StoreUrl url) {
        return RedisRecordStore.open(RedisStoreConfig.parse(url));
    }
}
