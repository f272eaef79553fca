package io.tell.sql.internal;

import io.tell.sql.CheckDef;
import io.tell.sql.ColumnDef;
import io.tell.sql.ColumnType;
import io.tell.sql.ForeignKeyDef;
import io.tell.sql.IndexDef;
import io.tell.sql.SequenceDef;
import io.tell.sql.SqlType;
import io.tell.sql.TableDef;
import io.tell.sql.ViewDef;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The catalog's record formats (see {@code docs/sql-rows.md}, "Catalog records"): the directory
 * (catalog version, table name -> table id, definition record id, and the sequences in full) and
 * one write-once record per table definition.
 */
public final class CatalogCodec {
    /** The directory's format: 2 added the sequences, 3 the views, 4 the schemas; older ones are still read. */
    public static final int FORMAT = 4;
    /**
     * The table definitions' format: 2 added the rid tree, 3 columns' sequences, 4 slots, 5 checks,
     * 6 foreign keys' actions; older ones are still read.
     */
    public static final int TABLE_FORMAT = 6;

    /** One directory entry: the table's id and the id of its current definition record. */
    public record DirEntry(long tableId, long defId) {
    }

    /**
     * The decoded directory: catalog version, entries by table name, sequences and views by name, in name order,
     * and the schemas created besides {@code PUBLIC}.
     */
    public record Directory(long version, Map<String, DirEntry> entries, Map<String, SequenceDef> sequences,
                            Map<String, ViewDef> views, java.util.SortedSet<String> schemas) {
        public Directory(long version, Map<String, DirEntry> entries, Map<String, SequenceDef> sequences) {
            this(version, entries, sequences, Map.of(), new java.util.TreeSet<>());
        }
    }

    private CatalogCodec() {
    }

    public static byte[] encodeDirectory(Directory dir) {
        ByteSink out = new ByteSink();
        out.write(FORMAT);
        out.writeVarint(dir.version());
        out.writeVarint(dir.entries().size());
        dir.entries().forEach((name, e) -> {
            out.writeString(name);
            out.writeVarint(e.tableId());
            out.writeVarint(e.defId());
        });
        out.writeVarint(dir.sequences().size());
        dir.sequences().forEach((name, q) -> {
            out.writeString(name);
            out.writeVarint(q.id());
            out.writeSignedVarint(q.start());
            out.writeSignedVarint(q.increment());
            out.writeSignedVarint(q.min());
            out.writeSignedVarint(q.max());
            out.writeVarint(q.cache());
            out.writeString(q.ownerTable() == null ? "" : q.ownerTable());
            out.writeString(q.ownerColumn() == null ? "" : q.ownerColumn());
        });
        out.writeVarint(dir.views().size());
        dir.views().forEach((name, v) -> {
            out.writeString(name);
            out.writeString(v.sql());
            out.writeVarint(v.columns().size());
            for (ColumnDef c : v.columns()) {
                out.writeString(c.name());
                writeType(out, c.type());
                out.write(c.nullable() ? 1 : 0);
            }
            writeNames(out, v.dependsOn());
        });
        writeNames(out, List.copyOf(dir.schemas()));
        return out.toByteArray();
    }

    public static Directory decodeDirectory(byte[] bytes) {
        ByteSource in = new ByteSource(bytes);
        int format = in.read();
        if (format < 1 || format > FORMAT) {
            throw ByteSource.corrupt("unknown catalog directory format " + format);
        }
        long version = in.readVarint();
        long n = in.readVarint();
        Map<String, DirEntry> entries = new LinkedHashMap<>();
        for (long i = 0; i < n; i++) {
            entries.put(in.readString(), new DirEntry(in.readVarint(), in.readVarint()));
        }
        Map<String, SequenceDef> sequences = new LinkedHashMap<>();
        long ns = format == 1 ? 0 : in.readVarint();
        for (long i = 0; i < ns; i++) {
            String name = in.readString();
            SequenceDef q = new SequenceDef(name, in.readVarint(), in.readSignedVarint(), in.readSignedVarint(),
                    in.readSignedVarint(), in.readSignedVarint(), (int) in.readVarint(), emptyAsNull(in.readString()),
                    emptyAsNull(in.readString()));
            sequences.put(name, q);
        }
        Map<String, ViewDef> views = new LinkedHashMap<>();
        long nv = format < 3 ? 0 : in.readVarint();
        for (long i = 0; i < nv; i++) {
            String name = in.readString();
            String sql = in.readString();
            long nc = in.readVarint();
            List<ColumnDef> columns = new ArrayList<>();
            for (long c = 0; c < nc; c++) {
                String cname = in.readString();
                ColumnType type = readType(in);
                columns.add(new ColumnDef(cname, type, (in.read() & 1) != 0, null));
            }
            views.put(name, new ViewDef(name, sql, columns, readNames(in)));
        }
        java.util.SortedSet<String> schemas = new java.util.TreeSet<>(format < 4 ? List.of() : readNames(in));
        end(in, "catalog directory");
        return new Directory(version, entries, sequences, views, schemas);
    }

    private static String emptyAsNull(String s) {
        return s.isEmpty() ? null : s;
    }

    public static byte[] encodeTable(TableDef t) {
        ByteSink out = new ByteSink();
        out.write(TABLE_FORMAT);
        out.writeVarint(t.id());
        out.writeString(t.name());
        out.writeVarint(t.columns().size());
        for (ColumnDef c : t.columns()) {
            out.writeString(c.name());
            writeType(out, c.type());
            out.write((c.nullable() ? 1 : 0) | (c.defaultValue() != null ? 2 : 0) | (c.sequence() != null ? 4 : 0)
                    | (c.identity() == ColumnDef.Identity.ALWAYS ? 8 : 0)
                    | (c.identity() == ColumnDef.Identity.BY_DEFAULT ? 16 : 0) | (c.defaultFunction() != null ? 32 : 0));
            if (c.defaultValue() != null) {
                out.writeBytes(new RowCodec(List.of(c.type())).encode(new Object[] {c.defaultValue()}));
            }
            if (c.sequence() != null) {
                out.writeString(c.sequence());
            }
            if (c.defaultFunction() != null) {
                out.writeString(c.defaultFunction());
            }
        }
        writeNames(out, t.primaryKey());
        out.writeString(t.rowDomain());
        out.writeString(t.ridCounter());
        out.writeString(t.pkTree() == null ? "" : t.pkTree());
        out.writeString(t.ridTree() == null ? "" : t.ridTree());
        out.writeVarint(t.nextIndexNo());
        out.writeVarint(t.indexes().size());
        for (IndexDef ix : t.indexes()) {
            out.writeString(ix.name());
            out.write((ix.unique() ? 1 : 0) | (ix.constraint() ? 2 : 0) | (ix.writeOnly() ? 4 : 0)
                    | (ix.descending().isEmpty() ? 0 : 8));
            writeNames(out, ix.columns());
            out.writeString(ix.treeName());
            if (!ix.descending().isEmpty()) {
                writeNames(out, ix.descending());
            }
        }
        out.writeVarint(t.foreignKeys().size());
        for (ForeignKeyDef fk : t.foreignKeys()) {
            out.writeString(fk.name());
            writeNames(out, fk.columns());
            out.writeString(fk.refTable());
            writeNames(out, fk.refColumns());
            out.write(fk.onDelete().ordinal());
            out.write(fk.onUpdate().ordinal());
        }
        out.writeVarint(t.slots().size());
        for (TableDef.Slot q : t.slots()) {
            writeType(out, q.type());
            out.write((q.dropped() ? 1 : 0) | (q.fill() != null ? 2 : 0));
            if (q.fill() != null) {
                out.writeBytes(new RowCodec(List.of(q.type())).encode(new Object[] {q.fill()}));
            }
        }
        out.writeVarint(t.checks().size());
        for (CheckDef c : t.checks()) {
            out.writeString(c.name());
            out.writeString(c.condition());
        }
        return out.toByteArray();
    }

    public static TableDef decodeTable(byte[] bytes) {
        ByteSource in = new ByteSource(bytes);
        int format = in.read();
        if (format < 1 || format > TABLE_FORMAT) {
            throw ByteSource.corrupt("unknown table definition format " + format);
        }
        long id = in.readVarint();
        String name = in.readString();
        long nc = in.readVarint();
        List<ColumnDef> columns = new ArrayList<>();
        for (long i = 0; i < nc; i++) {
            String cname = in.readString();
            ColumnType type = readType(in);
            int flags = in.read();
            Object def = (flags & 2) != 0 ? new RowCodec(List.of(type)).decode(in.readBytes())[0] : null;
            String sequence = (flags & 4) != 0 ? in.readString() : null;
            ColumnDef.Identity identity = (flags & 8) != 0 ? ColumnDef.Identity.ALWAYS
                    : (flags & 16) != 0 ? ColumnDef.Identity.BY_DEFAULT : ColumnDef.Identity.NONE;
            String function = (flags & 32) != 0 ? in.readString() : null;
            columns.add(new ColumnDef(cname, type, (flags & 1) != 0, def, sequence, identity, function));
        }
        List<String> pk = readNames(in);
        String rowDomain = in.readString();
        String ridCounter = in.readString();
        String pkTree = in.readString();
        String ridTree = format == 1 ? "" : in.readString();
        int nextIndexNo = (int) in.readVarint();
        long ni = in.readVarint();
        List<IndexDef> indexes = new ArrayList<>();
        for (long i = 0; i < ni; i++) {
            String iname = in.readString();
            int flags = in.read();
            List<String> icols = readNames(in);
            String tree = in.readString();
            indexes.add(new IndexDef(iname, icols, (flags & 1) != 0, (flags & 2) != 0, tree, (flags & 4) != 0,
                    (flags & 8) != 0 ? readNames(in) : List.of()));
        }
        long nf = in.readVarint();
        List<ForeignKeyDef> fks = new ArrayList<>();
        for (long i = 0; i < nf; i++) {
            String fkName = in.readString();
            List<String> cols = readNames(in);
            String ref = in.readString();
            List<String> refCols = readNames(in);
            fks.add(format < 6 ? new ForeignKeyDef(fkName, cols, ref, refCols)
                    : new ForeignKeyDef(fkName, cols, ref, refCols, action(in.read()), action(in.read())));
        }
        List<TableDef.Slot> slots = new ArrayList<>();
        long ns = format < 4 ? 0 : in.readVarint();
        for (long i = 0; i < ns; i++) {
            ColumnType type = readType(in);
            int flags = in.read();
            Object fill = (flags & 2) != 0 ? new RowCodec(List.of(type)).decode(in.readBytes())[0] : null;
            slots.add(new TableDef.Slot(type, fill, (flags & 1) != 0));
        }
        List<CheckDef> checks = new ArrayList<>();
        long nchecks = format < 5 ? 0 : in.readVarint();
        for (long i = 0; i < nchecks; i++) {
            checks.add(new CheckDef(in.readString(), in.readString()));
        }
        end(in, "table definition");
        return new TableDef(id, name, columns, pk, indexes, fks, rowDomain, ridCounter,
                pkTree.isEmpty() ? null : pkTree, ridTree.isEmpty() ? null : ridTree, nextIndexNo, slots, checks);
    }

    private static ForeignKeyDef.Action action(int ordinal) {
        ForeignKeyDef.Action[] all = ForeignKeyDef.Action.values();
        if (ordinal < 0 || ordinal >= all.length) {
            throw ByteSource.corrupt("unknown foreign key action " + ordinal);
        }
        return all[ordinal];
    }

    private static void writeType(ByteSink out, ColumnType type) {
        out.writeString(type.type().name());
        out.writeVarint(type.precision());
        out.writeVarint(type.scale());
        out.writeVarint(type.length());
    }

    private static ColumnType readType(ByteSource in) {
        return new ColumnType(sqlType(in.readString()), (int) in.readVarint(), (int) in.readVarint(), (int) in.readVarint());
    }

    private static SqlType sqlType(String name) {
        try {
            return SqlType.valueOf(name);
        } catch (IllegalArgumentException e) {
            throw ByteSource.corrupt("unknown column type " + name);
        }
    }

    private static void writeNames(ByteSink out, List<String> names) {
        out.writeVarint(names.size());
        names.forEach(out::writeString);
    }

    private static List<String> readNames(ByteSource in) {
        long n = in.readVarint();
        List<String> out = new ArrayList<>();
        for (long i = 0; i < n; i++) {
            out.add(in.readString());
        }
        return out;
    }

    private static void end(ByteSource in, String what) {
        if (!in.atEnd()) {
            throw ByteSource.corrupt(what + " has bytes after its end");
        }
    }
}
