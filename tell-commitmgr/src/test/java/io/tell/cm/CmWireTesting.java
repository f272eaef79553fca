package io.tell.cm;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tell.txn.TxStart;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/** What the commit-manager server tests share: raw frames, a server hanging up, a client's calls and pipelines. */
final class CmWireTesting {
    private CmWireTesting() {
    }

    /** One protocol frame: length, type, request id, body. */
    static byte[] frame(int type, long requestId, byte[] body) {
        return ByteBuffer.allocate(13 + body.length).putInt(9 + body.length).put((byte) type).putLong(requestId).put(body).array();
    }

    static void assertClosedByServer(Socket s) throws IOException {
        InputStream in = s.getInputStream();
        byte[] buf = new byte[4096];
        try {
            while (in.read(buf) >= 0) {
                // drain whatever the server said before hanging up
            }
        } catch (SocketTimeoutException e) {
            throw new AssertionError("server did not close the connection", e);
        } catch (IOException reset) {
            // a reset is a close too
        }
    }

    /**
     * Single calls (start, commit, abort, a reader that sees the commit), then 200 pipelined
     * starts (every fourth a reader) ended asynchronously, some aborted; the last writer
     * committed is visible to a new reader.
     */
    static void servesCallsAndPipelines(CommitManagerClient c) {
        TxStart committed = c.start(false);
        TxStart aborted = c.start(false);
        c.committed(committed.tid());
        c.aborted(aborted.tid());
        TxStart reader = c.start(true);
        assertTrue(reader.snapshot().isVisible(committed.tid()));
        c.committed(reader.tid());

        List<CompletableFuture<TxStart>> pipelined = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
            pipelined.add(c.startAsync(i % 4 == 0));
        }
        List<CompletableFuture<Void>> ends = new ArrayList<>();
        long lastCommitted = committed.tid();
        for (int i = 0; i < pipelined.size(); i++) {
            long tid = pipelined.get(i).join().tid();
            boolean abort = i % 3 == 1 && tid > 0;
            ends.add(abort ? c.abortedAsync(tid) : c.committedAsync(tid, 0));
            if (!abort && tid > 0) {
                lastCommitted = tid;
            }
        }
        CompletableFuture.allOf(ends.toArray(CompletableFuture[]::new)).join();
        assertTrue(c.start(true).snapshot().isVisible(lastCommitted));
    }
}
