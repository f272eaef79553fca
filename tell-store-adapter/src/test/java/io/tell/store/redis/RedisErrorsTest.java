package io.tell.store.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.RedisCommandTimeoutException;
import io.lettuce.core.RedisConnectionException;
import io.lettuce.core.RedisException;
import io.tell.error.ErrorCode;
import io.tell.error.TellException;
import io.tell.error.TellRetriableException;
import java.io.IOException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import org.junit.jupiter.api.Test;

class RedisErrorsTest {
    private static ErrorCode code(Throwable t) {
        return RedisErrors.translate(t).code();
    }

    @Test
    void connectionTroubleIsUnavailable() {
        assertEquals(ErrorCode.STORE_UNAVAILABLE, code(new RedisConnectionException("Unable to connect to 127.0.0.1:1")));
        assertEquals(ErrorCode.STORE_UNAVAILABLE, code(new RedisException("Currently not connected. Commands are rejected.")));
        assertEquals(ErrorCode.STORE_UNAVAILABLE, code(new RedisException("Connection closed")));
        assertEquals(ErrorCode.STORE_UNAVAILABLE, code(new IOException("Connection reset by peer")));
        assertEquals(ErrorCode.STORE_UNAVAILABLE, code(new RedisErrors.ConnectionLost("FCALL")));
        assertEquals(ErrorCode.STORE_UNAVAILABLE, code(new RedisErrors.NoPrimary(42)));
    }

    @Test
    void timeoutsAndMissingReplicasAreTimeouts() {
        assertEquals(ErrorCode.STORE_TIMEOUT, code(new RedisCommandTimeoutException("Command timed out after 2 second(s)")));
        assertEquals(ErrorCode.STORE_TIMEOUT, code(new RedisErrors.ReplicationShortfall(0, 1)));
        assertEquals(ErrorCode.STORE_TIMEOUT, code(new java.util.concurrent.TimeoutException()));
    }

    @Test
    void transientClusterStatesAreRetriableOtherErrorRepliesAreNot() {
        for (String reply : new String[] {"CLUSTERDOWN The cluster is down", "TRYAGAIN Multiple keys request during rehashing",
            "LOADING Redis is loading the dataset in memory", "READONLY You can't write against a read only replica.",
            "MOVED 3999 127.0.0.1:7001", "MASTERDOWN Link with MASTER is down"}) {
            assertEquals(ErrorCode.STORE_UNAVAILABLE, code(new RedisCommandExecutionException(reply)), reply);
        }
        assertEquals(ErrorCode.STORE_FAILURE,
                code(new RedisCommandExecutionException("WRONGTYPE Operation against a key holding the wrong kind of value")));
        assertEquals(ErrorCode.STORE_FAILURE, code(new RedisCommandExecutionException("ERR unknown command")));
    }

    @Test
    void retriableCodesComeAsTheRetriableBranch() {
        assertInstanceOf(TellRetriableException.class, RedisErrors.translate(new RedisConnectionException("x")));
        assertFalse(RedisErrors.translate(new RedisCommandExecutionException("ERR x")) instanceof TellRetriableException);
    }

    @Test
    void wrappersAreSeenThroughAndTellExceptionsPassUnchanged() {
        TellException own = TellException.of(ErrorCode.CORRUPT_DATA, "bad bytes");
        assertSame(own, RedisErrors.translate(new CompletionException(own)));
        assertEquals(ErrorCode.STORE_TIMEOUT,
                code(new ExecutionException(new CompletionException(new RedisCommandTimeoutException("t")))));
        assertEquals(ErrorCode.INTERNAL, code(new NullPointerException("bug")));
    }

    @Test
    void translatedFuturesFailWithTheTellExceptionItself() {
        CompletableFuture<Object> failed = CompletableFuture.failedFuture(new RedisCommandTimeoutException("t"));
        CompletableFuture<Object> out = RedisErrors.translated(failed);
        TellException e = TellException.unwrap(assertThrowsCause(out));
        assertEquals(ErrorCode.STORE_TIMEOUT, e.code());
    }

    @Test
    void redirectsAreParsed() {
        assertEquals(new RedisErrors.Redirect(false, "127.0.0.1", 7001),
                RedisErrors.redirect(new RedisCommandExecutionException("MOVED 3999 127.0.0.1:7001")));
        assertEquals(new RedisErrors.Redirect(true, "::1", 7002),
                RedisErrors.redirect(new CompletionException(new RedisCommandExecutionException("ASK 12 ::1:7002"))));
        assertNull(RedisErrors.redirect(new RedisCommandExecutionException("ERR MOVED nothing")));
        assertNull(RedisErrors.redirect(new RedisConnectionException("MOVED 1 h:2")));
        assertTrue(RedisErrors.isFunctionMissing(new RedisCommandExecutionException("ERR Function not found")));
        assertTrue(RedisErrors.isTryAgain(new RedisCommandExecutionException("TRYAGAIN Multiple keys")));
    }

    private static Throwable assertThrowsCause(CompletableFuture<?> f) {
        try {
            f.get();
        } catch (ExecutionException e) {
            return e.getCause();
        } catch (InterruptedException e) {
            throw new AssertionError(e);
        }
        throw new AssertionError("future did not fail");
    }
}
