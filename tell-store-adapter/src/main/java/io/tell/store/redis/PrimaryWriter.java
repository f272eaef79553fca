package io.tell.store.redis;

import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.codec.ByteArrayCodec;
import io.lettuce.core.output.IntegerOutput;
import io.lettuce.core.output.StatusOutput;
import io.lettuce.core.protocol.AsyncCommand;
import io.lettuce.core.protocol.Command;
import io.lettuce.core.protocol.CommandArgs;
import io.lettuce.core.protocol.CommandType;
import io.lettuce.core.protocol.RedisCommand;
import io.tell.store.redis.RedisStoreConfig.Address;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sends write commands to the primary that owns their slot, pipelined per node, and when
 * the store requires replicas, appends one {@code WAIT replicas timeout} to each node's
 * pipeline. WAIT covers every write sent before it on the same connection, which is why the
 * writes do not go through Lettuce's key routing: that could send a write and its WAIT over
 * different connections. The price is that redirects are followed here:
 *
 * <ul>
 *   <li>MOVED: resend to the named node and ask for a topology refresh;</li>
 *   <li>ASK: resend to the named node behind ASKING (sent in the same batch, so nothing
 *       else on the shared connection can come between);</li>
 *   <li>TRYAGAIN (the slot is half migrated): resend to the same node after 25, 50, 100...
 *       milliseconds;</li>
 *   <li>"Function not found" (a fresh node after a fail-over): load the library on that
 *       node and resend.</li>
 * </ul>
 * A redirected write was not executed, so resending it is safe. Anything else fails the
 * write; no callback here ever blocks.
 */
final class PrimaryWriter {
    static final int MAX_ATTEMPTS = 6;
    private static final Logger LOG = LoggerFactory.getLogger(PrimaryWriter.class);

    private final RedisNodes nodes;
    private final InFlightWrites inFlight;
    private final int replicas;
    private final long waitMillis;

    PrimaryWriter(RedisNodes nodes, InFlightWrites inFlight, int replicas, long waitMillis) {
        this.nodes = nodes;
        this.inFlight = inFlight;
        this.replicas = replicas;
        this.waitMillis = waitMillis;
    }

    /** One write aimed at the primary of {@code slot}; {@code command} makes a fresh command per attempt. */
    record SlotWrite<T>(int slot, Supplier<AsyncCommand<byte[], byte[], T>> command) {
    }

    private record Pending<T>(SlotWrite<T> write, CompletableFuture<T> result) {
    }

    /** Runs the writes, one pipeline per primary, all primaries at once; results in request order. */
    <T> CompletableFuture<List<T>> writeAll(List<SlotWrite<T>> writes) {
        List<CompletableFuture<T>> results = new ArrayList<>(writes.size());
        Map<Address, List<Pending<T>>> byPrimary = new LinkedHashMap<>();
        for (SlotWrite<T> write : writes) {
            Pending<T> pending = new Pending<>(write, new CompletableFuture<>());
            results.add(pending.result);
            try {
                byPrimary.computeIfAbsent(nodes.primaryOf(write.slot()), a -> new ArrayList<>()).add(pending);
            } catch (RuntimeException e) {
                pending.result.completeExceptionally(e);
            }
        }
        byPrimary.forEach((primary, group) -> sendTo(primary, group, false, 1));
        return CompletableFuture.allOf(results.toArray(CompletableFuture[]::new))
                .thenApply(v -> results.stream().map(CompletableFuture::join).toList());
    }

    <T> CompletableFuture<T> write(SlotWrite<T> write) {
        return writeAll(List.of(write)).thenApply(list -> list.get(0));
    }

    private <T> void sendTo(Address node, List<Pending<T>> group, boolean asking, int attempt) {
        nodes.connection(node).whenComplete((connection, error) -> {
            if (error != null) {
                nodes.topologyChanged();
                group.forEach(p -> p.result.completeExceptionally(error));
            } else {
                send(connection, group, asking, attempt);
            }
        });
    }

    private <T> void send(StatefulRedisConnection<byte[], byte[]> connection, List<Pending<T>> group,
            boolean asking, int attempt) {
        List<RedisCommand<byte[], byte[], ?>> batch = new ArrayList<>(group.size() * (asking ? 2 : 1) + 1);
        List<AsyncCommand<byte[], byte[], T>> commands = new ArrayList<>(group.size());
        for (Pending<T> pending : group) {
            if (asking) {
                batch.add(new AsyncCommand<>(new Command<>(CommandType.ASKING, new StatusOutput<>(ByteArrayCodec.INSTANCE))));
            }
            AsyncCommand<byte[], byte[], T> command = pending.write.command().get();
            inFlight.track(connection, command);
            batch.add(command);
            commands.add(command);
        }
        AsyncCommand<byte[], byte[], Long> wait = replicas > 0 ? waitCommand() : null;
        if (wait != null) {
            batch.add(wait);
        }
        try {
            connection.dispatch(batch);
        } catch (RuntimeException e) {
            // Typically rejected because the connection is down: nothing was sent.
            batch.forEach(c -> c.completeExceptionally(e));
        }
        for (int i = 0; i < group.size(); i++) {
            Pending<T> pending = group.get(i);
            commands.get(i).whenComplete((value, error) -> {
                if (error != null) {
                    retryOrFail(connection, pending, error, asking, attempt);
                } else if (wait == null) {
                    pending.result.complete(value);
                } else {
                    wait.whenComplete((reached, waitError) -> {
                        if (waitError != null) {
                            pending.result.completeExceptionally(waitError);
                        } else if (reached < replicas) {
                            pending.result.completeExceptionally(new RedisErrors.ReplicationShortfall(reached, replicas));
                        } else {
                            pending.result.complete(value);
                        }
                    });
                }
            });
        }
    }

    private <T> void retryOrFail(StatefulRedisConnection<byte[], byte[]> connection, Pending<T> pending,
            Throwable error, boolean asking, int attempt) {
        if (attempt >= MAX_ATTEMPTS) {
            pending.result.completeExceptionally(error);
            return;
        }
        LOG.debug("redis write attempt {} failed: {}", attempt, error.toString());
        RedisErrors.Redirect redirect = RedisErrors.redirect(error);
        if (redirect != null) {
            if (!redirect.ask()) {
                nodes.topologyChanged();
            }
            sendTo(new Address(redirect.host(), redirect.port()), List.of(pending), redirect.ask(), attempt + 1);
        } else if (RedisErrors.isFunctionMissing(error)) {
            LOG.info("redis function library {} missing on {}; loading it", RedisFunctions.WRITE, connection);
            RedisFunctions.loadOn(connection).whenComplete((ok, loadError) -> {
                if (loadError != null) {
                    pending.result.completeExceptionally(loadError);
                } else {
                    send(connection, List.of(pending), asking, attempt + 1);
                }
            });
        } else if (RedisErrors.isTryAgain(error)) {
            // Ask the same node again (with ASKING if that is how we got there): once the
            // migration ends it either runs the write or answers MOVED.
            CompletableFuture.runAsync(() -> send(connection, List.of(pending), asking, attempt + 1),
                    CompletableFuture.delayedExecutor(25L << (attempt - 1), TimeUnit.MILLISECONDS))
                    .exceptionally(e -> {
                        pending.result.completeExceptionally(e);
                        return null;
                    });
        } else {
            if (RedisErrors.translate(error).retriable()) {
                nodes.topologyChanged();
            }
            pending.result.completeExceptionally(error);
        }
    }

    private AsyncCommand<byte[], byte[], Long> waitCommand() {
        CommandArgs<byte[], byte[]> args = new CommandArgs<>(ByteArrayCodec.INSTANCE).add(replicas).add(waitMillis);
        return new AsyncCommand<>(new Command<>(CommandType.WAIT, new IntegerOutput<>(ByteArrayCodec.INSTANCE), args));
    }
}
