package io.tell.sql;

import io.tell.error.ErrorCode;
import io.tell.error.TellException;

/**
 * Rules for names of tables, columns and indexes. The catalog compares names exactly; folding
 * unquoted identifiers to upper case is the SQL front end's job.
 */
final class Names {
    static final int MAX_LENGTH = 128;

    private Names() {
    }

    static String check(String what, String name) {
        if (name == null || name.isEmpty() || name.length() > MAX_LENGTH) {
            throw TellException.of(ErrorCode.INVALID_DEFINITION,
                    what + " name must have 1 to " + MAX_LENGTH + " characters: " + name);
        }
        return name;
    }
}
