package io.tell.sql.engine;

import io.tell.cm.CommitManagerServer;
import io.tell.cm.LocalCommitManager;
import io.tell.sql.ProcessingNode;
import io.tell.sql.SqlSession;
import io.tell.store.RecordStore;
import io.tell.store.RecordStores;
import io.tell.store.redis.RedisServerExtension;
import java.util.stream.Stream;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** The golden SQL scripts on a real redis-server with a commit-manager service, each on a flushed store. */
class GoldenSqlRedisIT {
    @RegisterExtension
    static final RedisServerExtension REDIS = new RedisServerExtension();

    static Stream<String> scripts() {
        return GoldenSqlTest.scripts();
    }

    @ParameterizedTest
    @MethodSource("scripts")
    void script(String name) throws Exception {
        REDIS.process().call("FLUSHALL");
        try (RecordStore cmStore = RecordStores.open(REDIS.url());
             LocalCommitManager cm = LocalCommitManager.open(cmStore, LocalCommitManager.Options.durableService());
             CommitManagerServer server = CommitManagerServer.start(cm, "127.0.0.1", 0);
             ProcessingNode node = ProcessingNode.connect("jdbc:tell:" + REDIS.url() + "?cm=127.0.0.1:" + server.port());
             SqlSession session = node.openSession()) {
            GoldenScript.run(name, session);
        }
    }
}
