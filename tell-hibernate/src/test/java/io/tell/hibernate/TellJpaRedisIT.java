package io.tell.hibernate;

import io.tell.cm.CommitManagerServer;
import io.tell.cm.LocalCommitManager;
import io.tell.store.RecordStore;
import io.tell.store.RecordStores;
import io.tell.store.redis.RedisServerExtension;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The JPA scenarios on Tell over a real Redis with a commit-manager service on loopback. */
class TellJpaRedisIT extends JpaScenarios {
    @RegisterExtension
    static final RedisServerExtension REDIS = new RedisServerExtension();

    private static RecordStore cmStore;
    private static LocalCommitManager cm;
    private static CommitManagerServer server;

    @BeforeAll
    static void startCommitManager() {
        cmStore = RecordStores.open(REDIS.url());
        cm = LocalCommitManager.open(cmStore, LocalCommitManager.Options.durableService());
        server = CommitManagerServer.start(cm, "127.0.0.1", 0);
    }

    @AfterAll
    static void stopCommitManager() {
        server.close();
        cm.close();
        cmStore.close();
    }

    @Override
    String url() {
        return "jdbc:tell:" + REDIS.url() + "?cm=127.0.0.1:" + server.port();
    }
}
