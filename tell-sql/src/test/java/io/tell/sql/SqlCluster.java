package io.tell.sql;

import io.tell.cm.CommitManagerServer;
import io.tell.cm.LocalCommitManager;
import io.tell.store.RecordStore;
import io.tell.store.RecordStores;
import io.tell.store.redis.RedisServerExtension;
import java.util.ArrayList;
import java.util.List;

/**
 * For tests: a commit-manager service over a test's Redis and {@code n} processing nodes, each
 * with its own caches and catalog (as in separate JVMs: one node per URL text).
 */
final class SqlCluster implements AutoCloseable {
    private final RecordStore cmStore;
    private final LocalCommitManager cm;
    private final CommitManagerServer server;
    final List<ProcessingNode> nodes = new ArrayList<>();

    SqlCluster(RedisServerExtension redis, int n) {
        cmStore = RecordStores.open(redis.url());
        cm = LocalCommitManager.open(cmStore, LocalCommitManager.Options.durableService());
        server = CommitManagerServer.start(cm, "127.0.0.1", 0);
        String base = "jdbc:tell:" + redis.url() + "?cm=127.0.0.1:" + server.port();
        for (int i = 0; i < n; i++) {
            nodes.add(ProcessingNode.connect(base + "&timeoutMs=" + (3000 + i)));
        }
    }

    /** Runs one statement and discards its result. */
    static void run(SqlSession s, String sql) {
        s.execute(s.prepare(sql), List.of(), 0, 0).close();
    }

    @Override
    public void close() {
        nodes.forEach(ProcessingNode::close);
        server.close();
        cm.close();
        cmStore.close();
    }
}
