package io.tell.sql;

import io.tell.error.ErrorCode;
import io.tell.error.TellException;

/**
 * Rules for names of tables, columns and indexes. The catalog compares names exactly; folding
 * unquoted identifiers to upper case is the SQL front end's job.
 */
public final class Names {
    static final int MAX_LENGTH = 128;

    private Names() {
    }

    /** {@code name} as a quoted SQL identifier, so that it is read back exactly as the catalog spells it. */
    public static String quoted(String name) {
        return '"' + name.replace("\"", "\"\"") + '"';
    }

    public static String check(String what, String name) {
        if (name == null || name.isEmpty() || name.length() > MAX_LENGTH) {
            throw TellException.of(ErrorCode.INVALID_DEFINITION,
                    what + " name must have 1 to " + MAX_LENGTH + " characters: " + name);
        }
        return name;
    }
}
