package io.tell.server.internal;

import java.util.List;
import java.util.Map;

/**
 * A message from a PostgreSQL client, decoded from one frame by {@link PgFrameDecoder}.
 * Parameter values and COPY data stay raw bytes: what they mean depends on formats and types
 * known only to the session.
 */
public sealed interface FrontendMessage {
    /** About how many bytes the message holds, for flow control. */
    default long approximateSize() {
        return 16 + switch (this) {
            case Query q -> q.sql().length();
            case Parse p -> p.sql().length() + 4L * p.parameterTypes().length;
            case Bind b -> b.values().stream().mapToLong(v -> v == null ? 4 : 4 + v.length).sum();
            case CopyData d -> d.data().length;
            case AuthResponse a -> a.data().length;
            default -> 0;
        };
    }

    /** {@code SSLRequest} or {@code GSSENCRequest}: answered with 'N', then a startup follows. */
    record EncryptionRequest(boolean ssl) implements FrontendMessage {
    }

    /** {@code StartupMessage}: protocol 3.minor and the connection parameters (user, database, …). */
    record Startup(int minorVersion, Map<String, String> parameters) implements FrontendMessage {
    }

    /** {@code CancelRequest}, on a connection of its own. */
    record CancelRequest(int processId, int secretKey) implements FrontendMessage {
    }

    /** 'p': a password, SASLInitialResponse or SASLResponse; only the authentication step knows which. */
    record AuthResponse(byte[] data) implements FrontendMessage {
    }

    /** 'Q': one or more statements as text. */
    record Query(String sql) implements FrontendMessage {
    }

    /** 'P': {@code parameterTypes} may be shorter than the statement's parameters (0: unspecified). */
    record Parse(String name, String sql, int[] parameterTypes) implements FrontendMessage {
    }

    /** 'B': format codes as sent (0 or 1 entries mean "all the same"); a null value is SQL NULL. */
    record Bind(String portal, String statement, short[] parameterFormats, List<byte[]> values,
                short[] resultFormats) implements FrontendMessage {
    }

    /** 'D': {@code kind} 'S' (statement) or 'P' (portal). */
    record Describe(byte kind, String name) implements FrontendMessage {
    }

    /** 'E': {@code maxRows} 0 means all. */
    record Execute(String portal, int maxRows) implements FrontendMessage {
    }

    /** 'C': {@code kind} 'S' or 'P'. */
    record Close(byte kind, String name) implements FrontendMessage {
    }

    /** 'S'. */
    record Sync() implements FrontendMessage {
    }

    /** 'H'. */
    record Flush() implements FrontendMessage {
    }

    /** 'X'. */
    record Terminate() implements FrontendMessage {
    }

    /** 'd' during COPY FROM STDIN. */
    record CopyData(byte[] data) implements FrontendMessage {
    }

    /** 'c'. */
    record CopyDone() implements FrontendMessage {
    }

    /** 'f'. */
    record CopyFail(String reason) implements FrontendMessage {
    }
}
