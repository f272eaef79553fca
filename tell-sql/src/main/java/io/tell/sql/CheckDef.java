package io.tell.sql;

/**
 * A CHECK constraint: a condition over one row of its table, kept as SQL text. A row it finds
 * FALSE is refused (23514); TRUE and NULL (unknown) pass, as in standard SQL.
 */
public record CheckDef(String name, String condition) {
    public CheckDef {
        Names.check("constraint", name);
        if (condition == null || condition.isBlank()) {
            throw new IllegalArgumentException("check " + name + " has no condition");
        }
    }
}
