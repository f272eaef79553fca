package io.tell.cm.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.embedded.EmbeddedChannel;
import io.tell.error.ErrorCode;
import io.tell.error.TellException;
import java.util.concurrent.CompletionException;
import org.junit.jupiter.api.Test;

/**
 * A client without the cluster secret meets the server's CHALLENGE: every call on that
 * connection fails with AUTH_FAILED, whether it was sent before the CHALLENGE arrived or after
 * (the server answers nothing else, so a call left to time out would look like an outage).
 */
class CmClientConnectionTest {
    private static final CmClientConnection.Listener IGNORED = new CmClientConnection.Listener() {
        @Override
        public void closed(CmClientConnection connection) {
        }

        @Override
        public void unclaimed(CmClientConnection connection, CmProtocol.Response response) {
        }
    };

    private static CmClientConnection.Call report(long requestId) {
        return new CmClientConnection.Call(new CmProtocol.Report(requestId, io.tell.txn.CommitManager.Outcome.ABORTED, 1, 0));
    }

    private static void challenge(EmbeddedChannel channel) {
        channel.writeInbound(CmProtocol.encode(ByteBufAllocator.DEFAULT, new CmProtocol.Challenge(0, CmHandshake.nonce())));
    }

    private static ErrorCode failure(CmClientConnection.Call call) {
        assertTrue(call.future().isCompletedExceptionally(), "the call is ended, not left waiting");
        try {
            call.future().join();
            throw new AssertionError("unreachable");
        } catch (CompletionException e) {
            return ((TellException) e.getCause()).code();
        }
    }

    @Test
    void aCallSentBeforeTheChallengeFailsAsRefused() {
        CmClientConnection connection = new CmClientConnection(IGNORED, 0, "test");
        EmbeddedChannel channel = new EmbeddedChannel(CmFrameDecoder.forClient(), connection);
        CmClientConnection.Call call = report(1);
        connection.send(call);
        challenge(channel);
        assertEquals(ErrorCode.AUTH_FAILED, failure(call));
        assertFalse(channel.isActive());
    }

    @Test
    void aCallSentAfterTheChallengeFailsAsRefused() {
        CmClientConnection connection = new CmClientConnection(IGNORED, 0, "test");
        EmbeddedChannel channel = new EmbeddedChannel(CmFrameDecoder.forClient(), connection);
        challenge(channel);
        CmClientConnection.Call call = report(1);
        connection.send(call);
        channel.runPendingTasks();
        assertEquals(ErrorCode.AUTH_FAILED, failure(call));
    }
}
