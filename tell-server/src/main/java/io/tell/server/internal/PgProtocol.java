package io.tell.server.internal;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.handler.ssl.SslHandler;
import io.tell.error.ErrorCode;
import io.tell.error.TellException;
import io.tell.sql.SqlSession;
import io.tell.sql.SqlStates;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One connection's conversation on its own thread: startup, authentication (trust or
 * SCRAM-SHA-256), then the {@link PgSession}. A protocol violation or a failed login ends the
 * connection with a FATAL ErrorResponse.
 */
final class PgProtocol {
    private static final Logger LOG = LoggerFactory.getLogger(PgProtocol.class);
    private static final String MECHANISM = "SCRAM-SHA-256";
    private static final int AUTH_OK = 0;
    private static final int AUTH_SASL = 10;
    private static final int AUTH_SASL_CONTINUE = 11;
    private static final int AUTH_SASL_FINAL = 12;

    private final ConnectionContext context;
    private final Channel channel;
    private final BackendWriter out;
    private Map<String, String> startup;
    private ScramExchange scram;
    private boolean scramStarted;
    private PgSession session;
    private volatile SqlSession sqlSession; // for cancelRunning, from the event loop
    private CancelRegistry.Key key;
    private boolean closed;

    PgProtocol(ConnectionContext context, Channel channel) {
        this.context = context;
        this.channel = channel;
        this.out = new BackendWriter(channel);
    }

    void handle(FrontendMessage message) {
        if (closed) {
            return;
        }
        try {
            if (message instanceof FrontendMessage.Terminate) {
                channel.close();
            } else if (session != null) {
                session.handle(message);
            } else if (startup == null) {
                startup(message);
            } else {
                authenticate(message);
            }
        } catch (TellException e) {
            String state = e.code() == ErrorCode.PROTOCOL_ERROR ? "08P01" : SqlStates.of(e.code());
            LOG.warn("closing connection from {}: {}", channel.remoteAddress(), e.getMessage());
            fatal(state, e.getMessage());
        } catch (PgError e) {
            LOG.info("closing connection from {}: {}", channel.remoteAddress(), e.getMessage());
            fatal(e.sqlState(), e.getMessage());
        } catch (RuntimeException e) {
            LOG.error("closing connection from {} after an internal error", channel.remoteAddress(), e);
            fatal("XX000", "internal error: " + e);
        }
    }

    private void startup(FrontendMessage message) {
        if (!(message instanceof FrontendMessage.Startup s)) {
            throw TellException.of(ErrorCode.PROTOCOL_ERROR, "expected a startup message");
        }
        startup = s.parameters();
        List<String> unknownOptions = new ArrayList<>();
        startup.keySet().stream().filter(k -> k.startsWith("_pq_.")).forEach(unknownOptions::add);
        if (s.minorVersion() > 0 || !unknownOptions.isEmpty()) {
            out.negotiateProtocolVersion(0, unknownOptions);
        }
        if (context.tls() != null && channel.pipeline().get(SslHandler.class) == null) {
            throw new PgError("28000", "this server accepts TLS connections only (sslmode=require or stricter)");
        }
        String user = startup.get("user");
        if (user == null || user.isEmpty()) {
            throw new PgError("28000", "no PostgreSQL user name specified in startup packet");
        }
        if (startup.containsKey("replication") && !startup.get("replication").equalsIgnoreCase("false")) {
            throw new PgError("0A000", "replication connections are not supported");
        }
        if (context.trust()) {
            authenticated(user);
        } else {
            scram = new ScramExchange(context.verifiers().apply(user));
            out.authentication(AUTH_SASL, (MECHANISM + "\0\0").getBytes(StandardCharsets.US_ASCII));
            out.flush();
        }
    }

    private void authenticate(FrontendMessage message) {
        if (!(message instanceof FrontendMessage.AuthResponse r)) {
            throw TellException.of(ErrorCode.PROTOCOL_ERROR, "expected a SASL response, got " + message.getClass().getSimpleName());
        }
        try {
            if (!scramStarted) {
                scramStarted = true;
                out.authentication(AUTH_SASL_CONTINUE, scram.first(initialResponse(r.data())));
                out.flush();
            } else {
                byte[] serverFinal = scram.last(new String(r.data(), StandardCharsets.UTF_8));
                out.authentication(AUTH_SASL_FINAL, serverFinal);
                authenticated(startup.get("user"));
            }
        } catch (ScramExchange.Failure f) {
            if (f.badPassword) {
                LOG.info("password authentication failed for user \"{}\" from {}", startup.get("user"), channel.remoteAddress());
                throw new PgError("28P01", "password authentication failed for user \"" + startup.get("user") + "\"");
            }
            throw TellException.of(ErrorCode.PROTOCOL_ERROR, f.getMessage());
        }
    }

    /** SASLInitialResponse: mechanism name, then the client-first-message with its length. */
    private static String initialResponse(byte[] data) {
        ByteBuf in = Unpooled.wrappedBuffer(data);
        int end = in.indexOf(0, data.length, (byte) 0);
        if (end < 0 || data.length < end + 5) {
            throw TellException.of(ErrorCode.PROTOCOL_ERROR, "malformed SASLInitialResponse");
        }
        String mechanism = in.toString(0, end, StandardCharsets.UTF_8);
        if (!mechanism.equals(MECHANISM)) {
            throw TellException.of(ErrorCode.PROTOCOL_ERROR, "client selected an invalid SASL authentication mechanism " + mechanism);
        }
        int length = in.getInt(end + 1);
        if (length != data.length - end - 5) {
            throw TellException.of(ErrorCode.PROTOCOL_ERROR, "SASLInitialResponse length does not match its data");
        }
        return in.toString(end + 5, length, StandardCharsets.UTF_8);
    }

    private void authenticated(String user) {
        SessionParameters parameters = new SessionParameters(user);
        StartupOptions.apply(startup, parameters);
        SqlSession sql = context.node().openSession();
        out.authentication(AUTH_OK, new byte[0]);
        parameters.reported().forEach(out::parameterStatus);
        key = context.cancels().register(sql);
        out.backendKeyData(key.processId(), key.secretKey());
        sqlSession = sql;
        String database = startup.getOrDefault("database", user);
        session = new PgSession(sql, new CatalogSource(context.node().catalog(), database), parameters, out, context.readOnly());
        out.readyForQuery('I');
    }

    /** Whether login is complete; any thread may ask. */
    boolean authenticated() {
        return sqlSession != null;
    }

    /** Cancels the statement running for this connection, if any; any thread may call it. */
    void cancelRunning() {
        SqlSession s = sqlSession;
        if (s != null) {
            s.cancel();
        }
    }

    private void fatal(String sqlState, String message) {
        out.error("FATAL", sqlState, message);
        out.flush();
        channel.close();
        close();
    }

    /** Releases the session (rolling back an open transaction); called once the connection is gone, or after a fatal error. */
    void close() {
        if (closed) {
            return;
        }
        closed = true;
        out.discard();
        if (key != null) {
            context.cancels().remove(key.processId());
        }
        if (session != null) {
            try {
                session.close();
            } catch (RuntimeException e) {
                LOG.warn("closing the session of {} failed", channel.remoteAddress(), e);
            }
        }
    }
}
