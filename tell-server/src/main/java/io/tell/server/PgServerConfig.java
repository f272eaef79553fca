package io.tell.server;

import io.tell.error.ErrorCode;
import io.tell.error.TellException;
import io.tell.metrics.ServerProcess;
import java.time.Duration;

/**
 * How a {@link PgServer} listens and whom it lets in. {@code users} null means trust: any user
 * name is accepted without a password, which is refused on anything but a loopback address.
 * {@code maxMessageBytes} bounds one protocol message; a longer one closes the connection. A
 * client that has not logged in within {@code authenticationTimeout} is disconnected. With
 * {@code tls} (null: none) only TLS connections are served. A {@code readOnly} server (an OLAP
 * pool's) runs every transaction read-only: its snapshots never conflict with writers, and each
 * holds garbage collection back only while it runs; a client asking for READ WRITE gets 25006.
 */
public record PgServerConfig(String host, int port, PgUsers users, int maxMessageBytes, Duration authenticationTimeout,
                             PgTls tls, boolean readOnly) {
    /** PostgreSQL's own bound on a message is 1 GiB; a processing node needs far less. */
    public static final int DEFAULT_MAX_MESSAGE_BYTES = 64 << 20;
    /** PostgreSQL's authentication_timeout default. */
    public static final Duration DEFAULT_AUTHENTICATION_TIMEOUT = Duration.ofSeconds(60);

    public PgServerConfig {
        if (port < 0 || port > 65_535) {
            throw TellException.of(ErrorCode.BAD_CONFIGURATION, "port " + port + " is outside 0..65535");
        }
        if (maxMessageBytes < 1024) {
            throw TellException.of(ErrorCode.BAD_CONFIGURATION, "maxMessageBytes must be at least 1024");
        }
        if (authenticationTimeout == null || authenticationTimeout.isNegative() || authenticationTimeout.isZero()) {
            throw TellException.of(ErrorCode.BAD_CONFIGURATION, "authenticationTimeout must be positive");
        }
        if (users == null && !ServerProcess.isLoopback(host)) {
            throw TellException.of(ErrorCode.BAD_CONFIGURATION, "trust authentication is refused on " + host
                    + ": it lets anyone in; bind a loopback address or use SCRAM with a users file");
        }
    }

    /** Trust authentication on a loopback address: local development and tests. */
    public static PgServerConfig trust(String host, int port) {
        return new PgServerConfig(host, port, null, DEFAULT_MAX_MESSAGE_BYTES, DEFAULT_AUTHENTICATION_TIMEOUT, null, false);
    }

    /** SCRAM-SHA-256 authentication of {@code users}. */
    public static PgServerConfig scram(String host, int port, PgUsers users) {
        if (users == null) {
            throw TellException.of(ErrorCode.BAD_CONFIGURATION, "SCRAM authentication needs users");
        }
        return new PgServerConfig(host, port, users, DEFAULT_MAX_MESSAGE_BYTES, DEFAULT_AUTHENTICATION_TIMEOUT, null, false);
    }

    public PgServerConfig withMaxMessageBytes(int max) {
        return new PgServerConfig(host, port, users, max, authenticationTimeout, tls, readOnly);
    }

    public PgServerConfig withAuthenticationTimeout(Duration timeout) {
        return new PgServerConfig(host, port, users, maxMessageBytes, timeout, tls, readOnly);
    }

    public PgServerConfig withTls(PgTls serverTls) {
        return new PgServerConfig(host, port, users, maxMessageBytes, authenticationTimeout, serverTls, readOnly);
    }

    public PgServerConfig withReadOnly(boolean onlyReads) {
        return new PgServerConfig(host, port, users, maxMessageBytes, authenticationTimeout, tls, onlyReads);
    }
}
