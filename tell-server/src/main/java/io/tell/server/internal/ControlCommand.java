package io.tell.server.internal;

/**
 * A statement the server runs itself instead of handing it to Tell's SQL: transaction control
 * and session parameters ({@link ControlCommands#parse} recognises them).
 */
sealed interface ControlCommand {
    /** Transaction characteristics; null fields are not given. {@code isolation} is PostgreSQL's lower-case name. */
    record Modes(String isolation, Boolean readOnly) {
        static final Modes NONE = new Modes(null, null);
    }

    /** BEGIN / START TRANSACTION. */
    record Begin(Modes modes) implements ControlCommand {
    }

    /** COMMIT / END. */
    record Commit() implements ControlCommand {
    }

    /** ROLLBACK / ABORT. */
    record Rollback() implements ControlCommand {
    }

    /** SAVEPOINT name. */
    record Savepoint(String name) implements ControlCommand {
    }

    /** ROLLBACK [WORK | TRANSACTION] TO [SAVEPOINT] name. */
    record RollbackTo(String name) implements ControlCommand {
    }

    /** RELEASE [SAVEPOINT] name. */
    record Release(String name) implements ControlCommand {
    }

    /** SET name TO value (SET TIME ZONE, SET SESSION/LOCAL too). */
    record Set(String name, String value) implements ControlCommand {
    }

    /** SET TRANSACTION … ({@code session} false) or SET SESSION CHARACTERISTICS AS TRANSACTION … (true). */
    record SetTransaction(Modes modes, boolean session) implements ControlCommand {
    }

    /** RESET name; {@code name} null for RESET ALL. */
    record Reset(String name) implements ControlCommand {
    }

    /** SHOW name. */
    record Show(String name) implements ControlCommand {
    }

    /**
     * ANALYZE or VACUUM ({@code command}), accepted and ignored: each node samples its tables'
     * sizes when they change and its sweeper reclaims space on its own, and tools (TPC-C drivers, ORMs,
     * migration scripts) send them after loads.
     */
    record Maintenance(String command) implements ControlCommand {
    }

    /** The command tag CommandComplete carries. */
    default String tag() {
        return switch (this) {
            case Begin b -> "BEGIN";
            case Commit c -> "COMMIT";
            case Rollback r -> "ROLLBACK";
            case Savepoint s -> "SAVEPOINT";
            case RollbackTo r -> "ROLLBACK";
            case Release r -> "RELEASE";
            case Set s -> "SET";
            case SetTransaction s -> "SET";
            case Reset r -> "RESET";
            case Show s -> "SHOW";
            case Maintenance m -> m.command();
        };
    }
}
