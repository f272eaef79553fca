package io.tell.sql;

import io.tell.error.ErrorCode;
import io.tell.error.TellException;
import java.util.List;
import java.util.function.Predicate;

/**
 * The schemas a session looks in, in order, for a name written without one (PostgreSQL's {@code search_path});
 * new objects named without a schema go to the first of them that exists. Names as written are
 * {@code SCHEMA.NAME} or {@code NAME} (schema and relation names hold no dot), and come out as catalog names
 * ({@link Names}).
 */
public record SchemaPath(List<String> schemas) {
    public static final SchemaPath DEFAULT = new SchemaPath(List.of(Names.DEFAULT_SCHEMA));

    public SchemaPath {
        schemas = List.copyOf(schemas);
    }

    /**
     * The path a list of schema names gives, as PostgreSQL's {@code search_path} and its JDBC driver's
     * {@code currentSchema} write it: comma-separated, a name in double quotes taken as it is, one in lower case
     * as an unquoted name (which Tell spells in upper case), {@code $user} left out (Tell has no schema per user).
     */
    public static SchemaPath parse(String list) {
        List<String> schemas = new java.util.ArrayList<>();
        for (String part : list.split(",")) {
            String name = part.strip();
            if (name.length() >= 2 && name.startsWith("\"") && name.endsWith("\"")) {
                name = name.substring(1, name.length() - 1);
            } else if (name.equals(name.toLowerCase(java.util.Locale.ROOT))) {
                name = name.toUpperCase(java.util.Locale.ROOT);
            }
            if (!name.isEmpty() && !name.equals("$user") && !name.equals("$USER")) {
                schemas.add(name);
            }
        }
        return new SchemaPath(schemas);
    }

    /** The schema an unqualified new object goes to: the first of the path that exists (3F000 when none does). */
    public String creationSchema(CatalogSnapshot cat) {
        return schemas.stream().filter(cat::hasSchema).findFirst().orElseThrow(() -> TellException.of(
                ErrorCode.INVALID_SCHEMA_NAME, "no schema has been selected to create in (search path " + schemas + ")"));
    }

    /** The catalog name of a new relation written {@code written}. */
    public String forCreate(CatalogSnapshot cat, String written) {
        return written.indexOf('.') >= 0 ? qualified(written) : Names.qualified(creationSchema(cat), written);
    }

    /**
     * The catalog name of the relation (table, view or sequence) written {@code written}: the first schema of the
     * path that holds one of that name, else the name in the path's first schema that exists, or in its first
     * (so that "does not exist" names it; never a schema off the path).
     */
    public String relation(CatalogSnapshot cat, String written) {
        return find(cat, written, cat::hasRelation);
    }

    /** The catalog name of the index written {@code written}, found as {@link #relation} finds relations. */
    public String index(CatalogSnapshot cat, String written) {
        return find(cat, written, n -> cat.tableOfIndex(n).isPresent());
    }

    /** The catalog name of a sequence written {@code written}. */
    public String sequence(CatalogSnapshot cat, String written) {
        return find(cat, written, n -> cat.sequence(n).isPresent());
    }

    private String find(CatalogSnapshot cat, String written, Predicate<String> exists) {
        if (written.indexOf('.') >= 0) {
            return qualified(written);
        }
        for (String s : schemas) {
            String name = Names.qualified(s, written);
            if (cat.hasSchema(s) && exists.test(name)) {
                return name;
            }
        }
        String first = schemas.stream().filter(cat::hasSchema).findFirst()
                .orElseGet(() -> schemas.isEmpty() ? null : schemas.getFirst());
        if (first == null) {
            throw TellException.of(ErrorCode.INVALID_SCHEMA_NAME, "no schema is on the search path to find " + written + " in");
        }
        return Names.qualified(first, written);
    }

    /** {@code SCHEMA.NAME} as written (PUBLIC spelled out or not) as a catalog name. */
    private static String qualified(String written) {
        int dot = written.indexOf('.');
        return Names.qualified(written.substring(0, dot), written.substring(dot + 1));
    }
}
