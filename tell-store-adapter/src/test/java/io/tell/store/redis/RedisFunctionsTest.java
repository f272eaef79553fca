package io.tell.store.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tell.error.ErrorCode;
import io.tell.error.TellException;
import io.tell.store.WriteResult;
import java.util.List;
import org.junit.jupiter.api.Test;

class RedisFunctionsTest {
    @Test
    void theLibraryIsOnTheClasspathUnderItsVersionedName() {
        assertTrue(RedisFunctions.LIBRARY.startsWith("#!lua name=tell_v5\n"));
        assertTrue(RedisFunctions.LIBRARY.contains("register_function('" + RedisFunctions.WRITE + "'"));
        assertTrue(RedisFunctions.LIBRARY.contains("function_name = '" + RedisFunctions.FOLLOW + "'"));
    }

    @Test
    void repliesDecode() {
        assertEquals(new WriteResult.Written(300), RedisFunctions.decodeReply(reply('W', 300)));
        assertEquals(new WriteResult.Conflict(7), RedisFunctions.decodeReply(reply('C', 7)));
        assertEquals(new WriteResult.Conflict(0), RedisFunctions.decodeReply(new byte[] {'C'}));
        TellException e = assertThrows(TellException.class, () -> RedisFunctions.decodeReply(new byte[] {'X'}));
        assertEquals(ErrorCode.STORE_FAILURE, e.code());
        assertEquals(List.of(new WriteResult.Written(5), new WriteResult.Conflict(0)),
                RedisFunctions.decodeReplies(List.of(reply('W', 5), new byte[] {'C'}), 2));
        TellException short_ = assertThrows(TellException.class, () -> RedisFunctions.decodeReplies(List.of(reply('W', 5)), 2));
        assertEquals(ErrorCode.STORE_FAILURE, short_.code(), "a reply missing for a write is a store failure");
    }

    private static byte[] reply(char status, long version) {
        return RedisKeys.concat(new byte[] {(byte) status}, RedisKeys.encodeVersion(version));
    }
}
