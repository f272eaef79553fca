package io.tell.sql;

import io.tell.error.ErrorCode;
import io.tell.error.TellException;

/**
 * Rules for names of schemas, tables, columns and indexes. The catalog compares names exactly; folding
 * unquoted identifiers to upper case is the SQL front end's job.
 *
 * <p>A relation (table, view, sequence) or index is named in the catalog by its <em>catalog name</em>:
 * its bare name in schema {@value #DEFAULT_SCHEMA}, {@code SCHEMA.NAME} in any other schema. Names of
 * schemas, relations and indexes therefore never hold a dot; column and constraint names may.
 */
public final class Names {
    static final int MAX_LENGTH = 128;
    /** The schema every catalog has, which cannot be dropped, and where a bare catalog name lives. */
    public static final String DEFAULT_SCHEMA = "PUBLIC";

    private Names() {
    }

    /** {@code name} as a quoted SQL identifier, so that it is read back exactly as the catalog spells it. */
    public static String quoted(String name) {
        return '"' + name.replace("\"", "\"\"") + '"';
    }

    /** A catalog name as a qualified SQL name: {@code "SCHEMA"."NAME"}. */
    public static String quotedQualified(String catalogName) {
        return quoted(schemaOf(catalogName)) + "." + quoted(local(catalogName));
    }

    /** A catalog name as SQL shows it: {@code "NAME"} in {@value #DEFAULT_SCHEMA}, else {@code "SCHEMA"."NAME"}. */
    public static String shown(String catalogName) {
        return schemaOf(catalogName).equals(DEFAULT_SCHEMA) ? quoted(catalogName) : quotedQualified(catalogName);
    }

    /** The catalog name of {@code name} in {@code schema}. */
    public static String qualified(String schema, String name) {
        return schema.equals(DEFAULT_SCHEMA) ? name : schema + "." + name;
    }

    /** The schema of a catalog name. */
    public static String schemaOf(String catalogName) {
        int dot = catalogName.indexOf('.');
        return dot < 0 ? DEFAULT_SCHEMA : catalogName.substring(0, dot);
    }

    /** A catalog name without its schema. */
    public static String local(String catalogName) {
        return catalogName.substring(catalogName.indexOf('.') + 1);
    }

    /** A catalog name in the schema of another ({@code like}): a table's index, a renamed table. */
    public static String sibling(String like, String name) {
        return qualified(schemaOf(like), name);
    }

    /**
     * A relation's name in SQL text, as {@code nextval('…')} takes it: {@code name}, {@code "Name"}, or either
     * qualified by a schema; unquoted parts upper-cased when {@code fold}. The name as written
     * ({@code NAME} or {@code SCHEMA.NAME}, see {@link SchemaPath}); null when it is not a name of one or two parts.
     */
    public static String written(String text, boolean fold) {
        java.util.List<String> parts = new java.util.ArrayList<>();
        StringBuilder part = new StringBuilder();
        boolean quoted = false;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '"') {
                if (quoted && i + 1 < text.length() && text.charAt(i + 1) == '"') {
                    part.append('"');
                    i++;
                } else {
                    quoted = !quoted;
                }
            } else if (c == '.' && !quoted) {
                parts.add(part.toString());
                part.setLength(0);
            } else {
                part.append(quoted || !fold ? c : Character.toUpperCase(c));
            }
        }
        parts.add(part.toString());
        if (quoted || parts.size() > 2 || parts.stream().anyMatch(p -> p.isEmpty() || p.indexOf('.') >= 0)) {
            return null;
        }
        return String.join(".", parts);
    }

    public static String check(String what, String name) {
        if (name == null || name.isEmpty() || local(name).length() > MAX_LENGTH || schemaOf(name).length() > MAX_LENGTH) {
            throw TellException.of(ErrorCode.INVALID_DEFINITION,
                    what + " name must have 1 to " + MAX_LENGTH + " characters: " + name);
        }
        return name;
    }
}
