package io.tell.store.redis;

import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.RedisCommandTimeoutException;
import io.lettuce.core.RedisConnectionException;
import io.lettuce.core.RedisException;
import io.lettuce.core.cluster.PartitionSelectorException;
import io.tell.error.ErrorCode;
import io.tell.error.TellException;
import java.io.IOException;
import java.nio.channels.ClosedChannelException;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeoutException;

/**
 * The one place where failures of Redis and Lettuce become {@link TellException}s. Every
 * future the redis store hands out goes through {@link #translated}; nothing else in this
 * package builds a store failure.
 *
 * <ul>
 *   <li>refused, lost or closed connections, rejected commands while disconnected, a cluster
 *       that is down or re-sharding, a node still loading → STORE_UNAVAILABLE (retriable);</li>
 *   <li>a refused login (WRONGPASS, NOAUTH) or a command the ACL user may not run (NOPERM)
 *       → AUTH_FAILED (not retriable: the URL's credentials are wrong); the message carries
 *       Redis' reply, which never repeats the password;</li>
 *   <li>a command timeout, or WAIT not reaching the required replicas (the write happened on
 *       the primary but may be lost) → STORE_TIMEOUT (retriable, effect unknown);</li>
 *   <li>any other error reply → STORE_FAILURE; anything that is not Redis → INTERNAL.</li>
 * </ul>
 */
final class RedisErrors {
    private RedisErrors() {
    }

    /** A write was applied on the primary but fewer than the required replicas acknowledged it. */
    static final class ReplicationShortfall extends RedisException {
        private static final long serialVersionUID = 1L;

        ReplicationShortfall(long reached, int required) {
            super("write reached " + reached + " of " + required + " required replicas in time");
        }
    }

    /** The connection a write was sent on went away before the write was answered. */
    static final class ConnectionLost extends RedisException {
        private static final long serialVersionUID = 1L;

        ConnectionLost(String what) {
            super("connection lost with a write in flight: " + what);
        }
    }

    /** No primary serves a slot in the current view of the cluster. */
    static final class NoPrimary extends RedisException {
        private static final long serialVersionUID = 1L;

        NoPrimary(int slot) {
            super("no primary known for cluster slot " + slot);
        }
    }

    /** A MOVED or ASK redirect: the slot is (or, for ASK, is being moved) elsewhere. */
    record Redirect(boolean ask, String host, int port) {
    }

    /** A copy of {@code stage} that fails with the translated exception. */
    static <T> CompletableFuture<T> translated(CompletionStage<T> stage) {
        CompletableFuture<T> out = new CompletableFuture<>();
        stage.whenComplete((value, error) -> {
            if (error == null) {
                out.complete(value);
            } else {
                out.completeExceptionally(translate(error));
            }
        });
        return out;
    }

    static TellException translate(Throwable error) {
        Throwable t = unwrap(error);
        if (t instanceof TellException te) {
            return te;
        }
        String message = String.valueOf(t.getMessage());
        String refusal = authRefusal(t);
        if (refusal != null) {
            return TellException.of(ErrorCode.AUTH_FAILED, "redis refused the login: " + refusal
                    + " (check the user and password of the store URL)", t);
        }
        if (t instanceof ReplicationShortfall) {
            return TellException.of(ErrorCode.STORE_TIMEOUT, "redis: " + message + "; the write may or may not survive", t);
        }
        if (t instanceof RedisCommandTimeoutException || t instanceof TimeoutException) {
            return TellException.of(ErrorCode.STORE_TIMEOUT, "redis: " + message + "; effect unknown", t);
        }
        if (t instanceof RedisConnectionException || t instanceof ConnectionLost || t instanceof NoPrimary
                || t instanceof PartitionSelectorException || t instanceof IOException
                || t instanceof CancellationException) {
            return unavailable(t);
        }
        if (t instanceof RedisCommandExecutionException) {
            return isTransientReply(message) ? unavailable(t)
                    : TellException.of(ErrorCode.STORE_FAILURE, "redis error: " + message, t);
        }
        if (t instanceof RedisException) {
            // Lettuce reports its connection states as plain RedisExceptions:
            // "Currently not connected. Commands are rejected.", "Connection closed", "Connection is closed" ...
            if (message.contains("connect") || message.contains("Connection") || t.getCause() instanceof IOException
                    || t.getCause() instanceof ClosedChannelException) {
                return unavailable(t);
            }
            return TellException.of(ErrorCode.STORE_FAILURE, "redis client: " + message, t);
        }
        return TellException.of(ErrorCode.INTERNAL, "redis store: " + t, t);
    }

    /** The redirect an error reply asks for, or null. Replies look like {@code MOVED 3999 127.0.0.1:6381}. */
    static Redirect redirect(Throwable error) {
        Throwable t = unwrap(error);
        if (!(t instanceof RedisCommandExecutionException) || t.getMessage() == null) {
            return null;
        }
        String[] parts = t.getMessage().split(" ");
        boolean ask = parts[0].equals("ASK");
        if (!(ask || parts[0].equals("MOVED")) || parts.length < 3) {
            return null;
        }
        String target = parts[2];
        int colon = target.lastIndexOf(':');
        if (colon <= 0) {
            return null;
        }
        try {
            return new Redirect(ask, target.substring(0, colon), Integer.parseInt(target.substring(colon + 1)));
        } catch (NumberFormatException e) {
            return null;
        }
    }

    /** The node does not know our function library (a fresh node, or functions flushed). */
    static boolean isFunctionMissing(Throwable error) {
        Throwable t = unwrap(error);
        return t instanceof RedisCommandExecutionException && String.valueOf(t.getMessage()).contains("Function not found");
    }

    /** TRYAGAIN: a multi-key command hit a slot in the middle of migrating. */
    static boolean isTryAgain(Throwable error) {
        Throwable t = unwrap(error);
        return t instanceof RedisCommandExecutionException && String.valueOf(t.getMessage()).startsWith("TRYAGAIN");
    }

    /** Redis' reply refusing our credentials, found anywhere in the cause chain (Lettuce wraps it on connect), or null. */
    private static String authRefusal(Throwable t) {
        // Lettuce reports a refused login at connect time in several wrappings (the reply as a
        // command error, or inside a connection failure, sometimes only as a suppressed cause).
        for (Throwable c = t; c != null; c = c.getCause() == c ? null : c.getCause()) {
            String refusal = refusalIn(c);
            if (refusal != null) {
                return refusal;
            }
            for (Throwable s : c.getSuppressed()) {
                refusal = refusalIn(s);
                if (refusal != null) {
                    return refusal;
                }
            }
        }
        return null;
    }

    private static String refusalIn(Throwable c) {
        String m = c.getMessage();
        if (m == null) {
            return null;
        }
        for (String reply : new String[] {"WRONGPASS", "NOAUTH", "NOPERM"}) {
            int at = m.indexOf(reply);
            if (at >= 0) {
                return m.substring(at);
            }
        }
        return null;
    }

    private static boolean isTransientReply(String message) {
        for (String prefix : new String[] {"MOVED", "ASK", "TRYAGAIN", "CLUSTERDOWN", "LOADING", "MASTERDOWN",
                "READONLY", "NOREPLICAS", "BUSY"}) {
            if (message.startsWith(prefix)) {
                return true;
            }
        }
        return false;
    }

    private static TellException unavailable(Throwable t) {
        return TellException.of(ErrorCode.STORE_UNAVAILABLE, "redis unavailable: " + t.getMessage(), t);
    }

    private static Throwable unwrap(Throwable error) {
        Throwable t = error;
        while ((t instanceof CompletionException || t instanceof ExecutionException) && t.getCause() != null) {
            t = t.getCause();
        }
        return t;
    }
}
