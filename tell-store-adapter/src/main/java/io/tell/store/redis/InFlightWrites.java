package io.tell.store.redis;

import io.lettuce.core.RedisChannelHandler;
import io.lettuce.core.RedisConnectionStateListener;
import io.lettuce.core.protocol.AsyncCommand;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Makes writes at-most-once across reconnects. With auto-reconnect on, Lettuce re-sends the
 * commands that were in flight when a connection dropped once it is back. A re-sent
 * conditional write that had already been applied would then report a conflict with its own
 * write. So every write is registered here with its connection before it is sent, and when
 * that connection drops the write fails at once with {@link RedisErrors.ConnectionLost} (a
 * retriable "effect unknown"); Lettuce skips completed commands when it replays.
 *
 * <p>The listener runs on the event loop inside the channel's inactive event, before any
 * reconnect can complete, so no replay can overtake it.
 */
final class InFlightWrites implements RedisConnectionStateListener {
    private final ConcurrentHashMap<AsyncCommand<?, ?, ?>, Object> writes = new ConcurrentHashMap<>();

    /** Registers {@code command} as about to be sent on {@code connection}; it leaves when it completes. */
    void track(Object connection, AsyncCommand<?, ?, ?> command) {
        writes.put(command, connection);
        command.whenComplete((v, t) -> writes.remove(command));
    }

    int size() {
        return writes.size();
    }

    @Override
    public void onRedisDisconnected(RedisChannelHandler<?, ?> connection) {
        writes.forEach((command, on) -> {
            if (on == connection) {
                command.completeExceptionally(new RedisErrors.ConnectionLost(String.valueOf(command.getType())));
            }
        });
    }
}
