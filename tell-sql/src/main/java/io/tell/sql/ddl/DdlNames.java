package io.tell.sql.ddl;

import io.tell.sql.CatalogSnapshot;
import io.tell.sql.Names;
import io.tell.sql.SchemaPath;
import io.tell.sql.TableSpec;

/**
 * A DDL statement's names as written made catalog names ({@link Names}) along a session's schema path: a new
 * relation goes to the path's first schema unless its name says another, an existing one is found along the
 * path, and an index or constraint lives in its table's schema.
 */
final class DdlNames {
    private final CatalogSnapshot cat;
    private final SchemaPath path;

    private DdlNames(CatalogSnapshot cat, SchemaPath path) {
        this.cat = cat;
        this.path = path;
    }

    static DdlStatement resolve(DdlStatement statement, CatalogSnapshot cat, SchemaPath path) {
        return new DdlNames(cat, path).resolve(statement);
    }

    private DdlStatement resolve(DdlStatement statement) {
        return switch (statement) {
            case DdlStatement.CreateSchema c -> c;
            case DdlStatement.DropSchema d -> d;
            case DdlStatement.CreateTable c -> {
                String table = path.forCreate(cat, c.name());
                yield new DdlStatement.CreateTable(table, c.ifNotExists(),
                        c.columns().stream().map(this::column).toList(), c.primaryKey(),
                        c.uniques().stream().map(u -> unique(table, u)).toList(),
                        c.foreignKeys().stream().map(fk -> foreignKey(table, fk)).toList(),
                        c.checks().stream().map(k -> check(table, k)).toList());
            }
            case DdlStatement.CreateSequence c ->
                    new DdlStatement.CreateSequence(path.forCreate(cat, c.name()), c.ifNotExists(), c.options());
            case DdlStatement.DropSequence d -> new DdlStatement.DropSequence(path.sequence(cat, d.name()), d.ifExists());
            case DdlStatement.CreateIndex c -> {
                String table = path.relation(cat, c.table());
                yield new DdlStatement.CreateIndex(Names.sibling(table, c.name()), table, c.columns(), c.unique(),
                        c.ifNotExists(), c.descending());
            }
            case DdlStatement.DropTable d ->
                    new DdlStatement.DropTable(path.relation(cat, d.name()), d.ifExists(), d.cascade());
            case DdlStatement.CreateView v ->
                    new DdlStatement.CreateView(path.forCreate(cat, v.name()), v.orReplace(), v.columns(), v.query());
            case DdlStatement.DropView d -> new DdlStatement.DropView(path.relation(cat, d.name()), d.ifExists(), d.cascade());
            case DdlStatement.DropIndex d -> new DdlStatement.DropIndex(path.index(cat, d.name()), d.ifExists());
            case DdlStatement.AlterTable a -> {
                String table = path.relation(cat, a.table());
                yield new DdlStatement.AlterTable(table, a.ifExists(),
                        a.actions().stream().map(x -> action(table, x)).toList());
            }
            case DdlStatement.Truncate t -> new DdlStatement.Truncate(
                    t.tables().stream().map(n -> path.relation(cat, n)).toList(), t.restartIdentity(), t.cascade());
        };
    }

    private DdlStatement.AlterAction action(String table, DdlStatement.AlterAction action) {
        return switch (action) {
            case DdlStatement.AddColumn a -> new DdlStatement.AddColumn(column(a.column()), a.ifNotExists(),
                    a.references().stream().map(fk -> foreignKey(table, fk)).toList());
            case DdlStatement.DropConstraint d -> new DdlStatement.DropConstraint(Names.sibling(table, d.name()), d.ifExists());
            case DdlStatement.RenameConstraint r ->
                    new DdlStatement.RenameConstraint(Names.sibling(table, r.from()), Names.sibling(table, r.to()));
            case DdlStatement.RenameTable r -> new DdlStatement.RenameTable(Names.sibling(table, r.to()));
            case DdlStatement.SetDefault d -> d.sequence() == null ? d : new DdlStatement.SetDefault(d.column(), d.value(),
                    path.sequence(cat, d.sequence()), d.function(), d.drop());
            case DdlStatement.AddUnique u -> new DdlStatement.AddUnique(unique(table, u.unique()));
            case DdlStatement.AddForeignKey f -> new DdlStatement.AddForeignKey(foreignKey(table, f.foreignKey()));
            case DdlStatement.AddCheck c -> new DdlStatement.AddCheck(check(table, c.check()));
            case DdlStatement.DropColumn d -> d;
            case DdlStatement.RenameColumn r -> r;
            case DdlStatement.SetNotNull n -> n;
            case DdlStatement.SetType t -> t;
        };
    }

    private DdlStatement.Column column(DdlStatement.Column c) {
        if (c.defaultSequence() == null) {
            return c;
        }
        return new DdlStatement.Column(c.name(), c.type(), c.nullable(), c.defaultValue(),
                path.sequence(cat, c.defaultSequence()), c.identity(), c.owned(), c.defaultFunction());
    }

    private static TableSpec.IndexSpec unique(String table, TableSpec.IndexSpec u) {
        return u.name() == null ? u : new TableSpec.IndexSpec(Names.sibling(table, u.name()), u.columns(), u.unique(),
                u.constraint());
    }

    private TableSpec.ForeignKeySpec foreignKey(String table, TableSpec.ForeignKeySpec fk) {
        String ref = fk.refTable().equals(Names.local(table)) && !cat.hasRelation(path.relation(cat, fk.refTable()))
                ? table // a table referencing itself by its bare name while it is being created
                : path.relation(cat, fk.refTable());
        return new TableSpec.ForeignKeySpec(fk.name() == null ? null : Names.sibling(table, fk.name()), fk.columns(),
                ref, fk.refColumns(), fk.onDelete(), fk.onUpdate());
    }

    private static TableSpec.CheckSpec check(String table, TableSpec.CheckSpec c) {
        return c.name() == null ? c : new TableSpec.CheckSpec(Names.sibling(table, c.name()), c.condition());
    }
}
