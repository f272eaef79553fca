package io.tell.txn;

import io.tell.cm.CommitManagerClient;
import io.tell.cm.CommitManagerServer;
import io.tell.cm.LocalCommitManager;
import java.time.Duration;

/**
 * How a test's transactions reach their commit manager: {@link #embedded} (the manager itself,
 * in this JVM, alone on the tid counter) or {@link #overTheWire} (a durable manager, a cluster
 * member, served over TCP on loopback with tid ranges of 3, so it switches ranges every few
 * transactions, and a client of it: what a processing node talks to when the commit manager
 * runs in a process of its own).
 */
abstract class CommitManagerFixture implements AutoCloseable {
    abstract LocalCommitManager.Options options();

    /** What the transactions talk to, for {@code cm} opened with {@link #options()}. */
    abstract CommitManager connect(LocalCommitManager cm);

    /** Closes what {@link #connect} opened; the manager stays open. */
    @Override
    public void close() {
    }

    static CommitManagerFixture embedded() {
        return new CommitManagerFixture() {
            @Override
            LocalCommitManager.Options options() {
                return LocalCommitManager.Options.embedded();
            }

            @Override
            CommitManager connect(LocalCommitManager cm) {
                return cm;
            }
        };
    }

    static CommitManagerFixture overTheWire() {
        return new CommitManagerFixture() {
            private CommitManagerServer server;
            private CommitManagerClient client;

            @Override
            LocalCommitManager.Options options() {
                return new LocalCommitManager.Options(3, true, Duration.ofSeconds(3));
            }

            @Override
            CommitManager connect(LocalCommitManager cm) {
                server = CommitManagerServer.start(cm, "127.0.0.1", 0);
                client = CommitManagerClient.connect("127.0.0.1:" + server.port(), CommitManagerClient.Options.defaults());
                return client;
            }

            @Override
            public void close() {
                client.close();
                server.close();
            }
        };
    }
}
