package io.tell.cm;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.tell.error.ErrorCode;
import io.tell.error.TellException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ClusterSecretTest {
    private static final byte[] DATA = "data".getBytes(StandardCharsets.UTF_8);

    @Test
    void aFileWinsOverTheEnvironmentAndItsFinalNewlineIsNotPartOfIt(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("secret");
        Files.writeString(file, "0123456789abcdef-file\n");
        ClusterSecret fromFile = ClusterSecret.configured(file.toString(), Map.of(ClusterSecret.ENV, "0123456789abcdef-env"));
        assertArrayEquals(ClusterSecret.of("0123456789abcdef-file").mac(DATA), fromFile.mac(DATA));
        ClusterSecret fromEnv = ClusterSecret.configured(null, Map.of(ClusterSecret.ENV, "0123456789abcdef-env"));
        assertArrayEquals(ClusterSecret.of("0123456789abcdef-env").mac(DATA), fromEnv.mac(DATA));
        assertFalse(Arrays.equals(fromFile.mac(DATA), fromEnv.mac(DATA)));
        assertNull(ClusterSecret.configured(null, Map.of()));
    }

    @Test
    void shortOrMissingSecretsAreConfigurationErrors() {
        assertEquals(ErrorCode.BAD_CONFIGURATION, assertThrows(TellException.class, () -> ClusterSecret.of("short")).code());
        TellException missing = assertThrows(TellException.class, () -> ClusterSecret.configured("/nonexistent/secret", Map.of()));
        assertEquals(ErrorCode.BAD_CONFIGURATION, missing.code());
    }

    @Test
    void neverShowsItself() {
        assertEquals("ClusterSecret[***]", ClusterSecret.of("0123456789abcdef-xyz").toString());
    }
}
