package io.tell.sql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tell.error.ErrorCode;
import org.junit.jupiter.api.Test;

class SqlStatesTest {
    @Test
    void everyCodeHasAFiveCharacterStateAndTheIssueNamesTheKeyOnes() {
        for (ErrorCode c : ErrorCode.values()) {
            assertTrue(SqlStates.of(c).matches("[0-9A-Z]{5}"), c.name());
        }
        assertEquals("40001", SqlStates.of(ErrorCode.TX_CONFLICT));
        assertEquals("23505", SqlStates.of(ErrorCode.DUPLICATE_KEY));
        assertEquals("23502", SqlStates.of(ErrorCode.NOT_NULL_VIOLATION));
        assertTrue(SqlStates.of(ErrorCode.STORE_UNAVAILABLE).startsWith("08"));
        assertTrue(SqlStates.of(ErrorCode.CM_UNAVAILABLE).startsWith("08"));
        assertTrue(SqlStates.of(ErrorCode.INVALID_DEFINITION).startsWith("42"));
    }
}
