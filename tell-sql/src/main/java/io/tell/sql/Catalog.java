package io.tell.sql;

import io.tell.error.ErrorCode;
import io.tell.error.TellException;
import io.tell.sql.internal.CatalogCodec;
import io.tell.sql.internal.CatalogCodec.DirEntry;
import io.tell.sql.internal.CatalogCodec.Directory;
import io.tell.store.Expect;
import io.tell.store.KeyRange;
import io.tell.store.RecordKey;
import io.tell.store.RecordStore;
import io.tell.store.Versioned;
import io.tell.store.WriteOp;
import io.tell.store.WriteResult;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Function;

/**
 * The SQL catalog of one processing node, kept in the record store so that DDL done through
 * any node is seen by all (see {@code docs/sql-rows.md}, "Catalog records").
 *
 * <p>Domain {@value #DOMAIN} holds a <i>directory</i> record ({@code dir}: catalog version,
 * per table its id and the id of its definition record, and every sequence's definition) and
 * write-once <i>definition</i> records ({@code def/<id>}). Sequences count the numbers they
 * handed out in domain {@value #SEQUENCE_DOMAIN}, one counter record per sequence id. A DDL statement writes the new definition records first, then
 * swings the directory with a write conditional on the version it read; that write is the
 * commit point. On a conflict (another node's DDL got in first) it re-reads and re-validates
 * against the newer catalog and tries again, so concurrent DDL never loses a change.
 *
 * <p>Thread-safe. Definitions are cached forever by record id (they never change); the
 * directory is re-read by {@link #snapshot()}, one store round trip, plus one more to fetch
 * definitions this node has not seen. {@link #cached()} costs nothing. Definition records are
 * kept after a drop: {@link #definitions()} lists them all, which is how the sweeper
 * ({@link CatalogSweepScope}) finds the storage of dropped tables and indexes.
 */
public final class Catalog {
    public static final String DOMAIN = "tell.catalog";
    private static final byte[] DIR_KEY = bytes("dir");
    private static final byte[] TABLE_ID_COUNTER = bytes("table.id");
    private static final byte[] DEF_ID_COUNTER = bytes("def.id");
    private static final byte[] SEQUENCE_ID_COUNTER = bytes("sequence.id");
    /** Where sequences count the numbers they handed out: one counter per sequence id. */
    public static final String SEQUENCE_DOMAIN = "tell.sequences";
    private static final int MAX_ATTEMPTS = 200;

    private final RecordStore store;
    private final Map<Long, TableDef> defsById = new ConcurrentHashMap<>();
    private volatile CatalogSnapshot cached = new CatalogSnapshot(0, 0, Map.of(), Map.of(), Map.of(), Map.of(), java.util.Set.of());

    public Catalog(RecordStore store) {
        this.store = store;
    }

    /** The directory record: its store version changes with every catalog change. */
    public static final RecordKey DIRECTORY = new RecordKey(DOMAIN, DIR_KEY);

    /** The newest catalog, revalidated against the store (one round trip when nothing changed). */
    public CatalogSnapshot snapshot() {
        Versioned dir = store.get(DOMAIN, DIR_KEY);
        CatalogSnapshot c = cached;
        long storeVersion = dir == null ? 0 : dir.version();
        if (storeVersion == c.storeVersion()) {
            return c;
        }
        return remember(load(dir));
    }

    /**
     * The cached catalog when it is at least {@code version}, without a round trip; otherwise
     * revalidated. For a node that learns of a version (e.g. a plan or a peer names one) and
     * needs to know it is not behind it.
     */
    public CatalogSnapshot atLeast(long version) {
        CatalogSnapshot c = cached;
        return c.version() >= version ? c : snapshot();
    }

    /** The catalog as this node last saw it, without asking the store. */
    public CatalogSnapshot cached() {
        return cached;
    }

    public TableDef table(String name) {
        return snapshot().table(name).orElseThrow(() -> undefined("table " + name + " does not exist"));
    }

    public List<TableDef> tables() {
        return snapshot().tables();
    }

    /**
     * Every definition record in the store, current, superseded (by ALTER-like changes) and of
     * dropped tables alike; a definition being published right now may be among them. One scan.
     */
    public List<TableDef> definitions() {
        byte[] to = bytes("def0"); // '0' follows '/': the end of the def/ keys
        List<TableDef> out = new ArrayList<>();
        for (var r : store.scan(DOMAIN, new KeyRange(bytes("def/"), to), Integer.MAX_VALUE)) {
            out.add(defsById.computeIfAbsent(defIdOf(r.key()), id -> CatalogCodec.decodeTable(r.value())));
        }
        return out;
    }

    /**
     * Creates a table. With {@code ifNotExists}, an existing table of that name is returned
     * unchanged; otherwise it is {@link ErrorCode#DUPLICATE_OBJECT}.
     */
    public TableDef createTable(TableSpec spec, boolean ifNotExists) {
        return createTable(spec, List.of(), ifNotExists);
    }

    /**
     * Creates a table and, in the same catalog change, the sequences its identity and SERIAL
     * columns own ({@code owned}: ids are drawn here). Every column's sequence must be among
     * them or exist already.
     */
    public TableDef createTable(TableSpec spec, List<SequenceDef> owned, boolean ifNotExists) {
        return change(cat -> {
            TableDef existing = cat.tableMap().get(spec.name());
            if (existing != null) {
                if (ifNotExists) {
                    return Edit.none(existing);
                }
                throw TellException.of(ErrorCode.DUPLICATE_OBJECT, "table " + spec.name() + " already exists");
            }
            checkRelationNameFree(cat, spec.name());
            List<SequenceDef> sequences = new ArrayList<>();
            for (SequenceDef q : owned) {
                checkRelationNameFree(cat, q.name());
                sequences.add(q.withId(store.increment(DOMAIN, SEQUENCE_ID_COUNTER, 1)));
            }
            for (ColumnDef c : spec.columns()) {
                if (c.sequence() != null && !cat.sequenceMap().containsKey(c.sequence())
                        && owned.stream().noneMatch(q -> q.name().equals(c.sequence()))) {
                    throw undefined("sequence " + c.sequence() + " (DEFAULT of column " + c.name() + ") does not exist");
                }
            }
            TableDef def = TableDef.create(store.increment(DOMAIN, TABLE_ID_COUNTER, 1), spec);
            for (IndexDef ix : def.indexes()) {
                checkIndexNameFree(cat, ix.name());
            }
            TableDef resolved = def.withForeignKeys(def.foreignKeys().stream()
                    .map(fk -> checkForeignKey(cat, def, fk)).toList());
            for (CheckDef c : resolved.checks()) {
                Checks.validate(cat.with(resolved), resolved, c);
            }
            return Edit.put(resolved, resolved).withSequences(sequences, List.of());
        });
    }

    /**
     * Creates a view, or with {@code orReplace} replaces one whose columns the new one keeps
     * (same names and types, in order; more may follow).
     */
    public void createView(ViewDef view, boolean orReplace) {
        change(cat -> {
            ViewDef old = cat.viewMap().get(view.name());
            if (old != null && orReplace) {
                for (int i = 0; i < old.columns().size(); i++) {
                    ColumnDef was = old.columns().get(i);
                    if (i >= view.columns().size() || !was.name().equals(view.columns().get(i).name())
                            || !was.type().equals(view.columns().get(i).type())) {
                        throw TellException.of(ErrorCode.INVALID_DEFINITION, "cannot replace view " + view.name()
                                + ": its column " + was.name() + " " + was.type() + " would change or go");
                    }
                }
                if (readsTransitively(cat, view, view.name())) {
                    throw TellException.of(ErrorCode.INVALID_DEFINITION, "view " + view.name() + " would read itself");
                }
            } else {
                checkRelationNameFree(cat, view.name());
            }
            return Edit.none(null).withViews(List.of(view), List.of());
        });
    }

    /** Drops a view; with {@code cascade} also the views that read it. False when absent and {@code ifExists}. */
    public boolean dropView(String name, boolean ifExists, boolean cascade) {
        return change(cat -> {
            if (!cat.viewMap().containsKey(name)) {
                if (ifExists) {
                    return Edit.none(false);
                }
                throw undefined("view " + name + " does not exist");
            }
            List<String> drops = new ArrayList<>(dependentViews(cat, name, cascade, "view"));
            drops.add(name);
            return Edit.none(true).withViews(List.of(), drops);
        });
    }

    /** The views that read {@code name}, transitively: none, or DEPENDENT_OBJECTS without {@code cascade}. */
    private static List<String> dependentViews(CatalogSnapshot cat, String name, boolean cascade, String kind) {
        java.util.LinkedHashSet<String> out = new java.util.LinkedHashSet<>();
        List<String> todo = new ArrayList<>(List.of(name));
        while (!todo.isEmpty()) {
            for (ViewDef v : cat.viewsOn(todo.remove(todo.size() - 1))) {
                if (!cascade) {
                    throw TellException.of(ErrorCode.DEPENDENT_OBJECTS, "cannot drop " + kind + " " + name
                            + " because view " + v.name() + " reads it (use CASCADE to drop that too)");
                }
                if (out.add(v.name())) {
                    todo.add(v.name());
                }
            }
        }
        return List.copyOf(out);
    }

    /** Whether {@code view} reads {@code name}, directly or through other views. */
    private static boolean readsTransitively(CatalogSnapshot cat, ViewDef view, String name) {
        for (String d : view.dependsOn()) {
            ViewDef inner = cat.viewMap().get(d);
            if (d.equals(name) || inner != null && readsTransitively(cat, inner, name)) {
                return true;
            }
        }
        return false;
    }

    /** Creates a sequence; false when one of that name exists and {@code ifNotExists}. */
    public boolean createSequence(SequenceDef spec, boolean ifNotExists) {
        return change(cat -> {
            if (cat.sequenceMap().containsKey(spec.name()) && ifNotExists) {
                return Edit.none(false);
            }
            checkRelationNameFree(cat, spec.name());
            SequenceDef q = spec.withId(store.increment(DOMAIN, SEQUENCE_ID_COUNTER, 1));
            return Edit.<Boolean>none(true).withSequences(List.of(q), List.of());
        });
    }

    /**
     * Drops a sequence made by CREATE SEQUENCE; false when it did not exist and {@code ifExists}.
     * One a column's DEFAULT uses cannot be dropped (DEPENDENT_OBJECTS); one an identity or
     * SERIAL column owns goes with its table.
     */
    public boolean dropSequence(String name, boolean ifExists) {
        return change(cat -> {
            SequenceDef q = cat.sequenceMap().get(name);
            if (q == null) {
                if (ifExists) {
                    return Edit.none(false);
                }
                throw undefined("sequence " + name + " does not exist");
            }
            for (TableDef t : cat.tableMap().values()) {
                for (ColumnDef c : t.columns()) {
                    if (name.equals(c.sequence())) {
                        throw TellException.of(ErrorCode.DEPENDENT_OBJECTS, "cannot drop sequence " + name
                                + " because the default of column " + c.name() + " of table " + t.name() + " uses it");
                    }
                }
            }
            if (q.ownerTable() != null) {
                throw TellException.of(ErrorCode.DEPENDENT_OBJECTS, "cannot drop sequence " + name + " because column "
                        + q.ownerColumn() + " of table " + q.ownerTable() + " owns it; it goes with the table");
            }
            return Edit.<Boolean>none(true).withSequences(List.of(), List.of(q));
        });
    }

    /** Creates a schema; false when it exists and {@code ifNotExists}. */
    public boolean createSchema(String name, boolean ifNotExists) {
        Names.check("schema", name);
        return change(cat -> {
            if (cat.hasSchema(name)) {
                if (ifNotExists) {
                    return Edit.none(false);
                }
                throw TellException.of(ErrorCode.DUPLICATE_OBJECT, "schema " + name + " already exists");
            }
            java.util.SortedSet<String> all = new java.util.TreeSet<>(cat.schemas());
            all.add(name);
            return Edit.<Boolean>none(true).withSchemas(all);
        });
    }

    /**
     * Drops a schema; false when it did not exist and {@code ifExists}. One that holds tables, views or
     * sequences needs {@code cascade}, which drops them too (and the views of other schemas that read them);
     * a foreign key or a column DEFAULT of a table elsewhere that needs one of them keeps it
     * (DEPENDENT_OBJECTS). {@value Names#DEFAULT_SCHEMA} cannot be dropped.
     */
    public boolean dropSchema(String name, boolean ifExists, boolean cascade) {
        return change(cat -> {
            if (!cat.hasSchema(name)) {
                if (ifExists) {
                    return Edit.none(false);
                }
                throw TellException.of(ErrorCode.INVALID_SCHEMA_NAME, "schema " + name + " does not exist");
            }
            if (name.equals(Names.DEFAULT_SCHEMA)) {
                throw TellException.of(ErrorCode.FEATURE_NOT_SUPPORTED, "schema " + name + " cannot be dropped");
            }
            java.util.function.Predicate<String> inside = n -> Names.schemaOf(n).equals(name);
            List<String> tables = cat.tableMap().keySet().stream().filter(inside).toList();
            List<SequenceDef> sequences = cat.sequenceMap().values().stream().filter(q -> inside.test(q.name())).toList();
            java.util.LinkedHashSet<String> views = new java.util.LinkedHashSet<>(
                    cat.viewMap().keySet().stream().filter(inside).toList());
            List<String> members = new ArrayList<>(tables);
            members.addAll(views);
            sequences.forEach(q -> members.add(q.name()));
            if (!members.isEmpty() && !cascade) {
                throw TellException.of(ErrorCode.DEPENDENT_OBJECTS, "cannot drop schema " + name + " because "
                        + members.getFirst() + " is in it (use CASCADE to drop what it holds too)");
            }
            for (TableDef other : cat.tableMap().values()) {
                if (inside.test(other.name())) {
                    continue;
                }
                for (ForeignKeyDef fk : other.foreignKeys()) {
                    if (inside.test(fk.refTable())) {
                        throw TellException.of(ErrorCode.DEPENDENT_OBJECTS, "cannot drop schema " + name + ": table "
                                + fk.refTable() + " is referenced by foreign key " + fk.name() + " of table " + other.name());
                    }
                }
                for (ColumnDef c : other.columns()) {
                    if (c.sequence() != null && inside.test(c.sequence())) {
                        throw TellException.of(ErrorCode.DEPENDENT_OBJECTS, "cannot drop schema " + name
                                + ": the default of column " + c.name() + " of table " + other.name() + " uses sequence "
                                + c.sequence());
                    }
                }
            }
            for (String relation : List.copyOf(members)) {
                views.addAll(dependentViews(cat, relation, true, "relation"));
            }
            java.util.SortedSet<String> all = new java.util.TreeSet<>(cat.schemas());
            all.remove(name);
            return new Edit<>(true, List.of(), tables, List.of(), sequences)
                    .withViews(List.of(), List.copyOf(views)).withSchemas(all);
        });
    }

    /**
     * Takes the next {@code count} numbers of sequence {@code q} from the store (one round trip):
     * the numbers {@code (returned - count, returned]}, to be turned into values by
     * {@link SequenceDef#value}. Outside any transaction: a rollback does not give them back.
     */
    public long takeNumbers(SequenceDef q, int count) {
        return store.increment(SEQUENCE_DOMAIN, sequenceKey(q.id()), count);
    }

    /** Drops a table; false when it did not exist and {@code ifExists}. */
    public boolean dropTable(String name, boolean ifExists) {
        return dropTable(name, ifExists, false);
    }

    /** Drops a table; with {@code cascade} also the views that read it (else they keep it: DEPENDENT_OBJECTS). */
    public boolean dropTable(String name, boolean ifExists, boolean cascade) {
        return change(cat -> {
            if (!cat.tableMap().containsKey(name)) {
                if (ifExists) {
                    return Edit.none(false);
                }
                throw undefined("table " + name + " does not exist");
            }
            for (TableDef other : cat.tableMap().values()) {
                for (ForeignKeyDef fk : other.foreignKeys()) {
                    if (fk.refTable().equals(name) && !other.name().equals(name)) {
                        throw TellException.of(ErrorCode.INVALID_DEFINITION, "table " + name
                                + " is referenced by foreign key " + fk.name() + " of table " + other.name());
                    }
                }
            }
            List<SequenceDef> owned = cat.sequenceMap().values().stream()
                    .filter(q -> name.equals(q.ownerTable())).toList();
            for (TableDef other : cat.tableMap().values()) {
                for (ColumnDef c : other.columns()) {
                    if (!other.name().equals(name) && owned.stream().anyMatch(q -> q.name().equals(c.sequence()))) {
                        throw TellException.of(ErrorCode.DEPENDENT_OBJECTS, "cannot drop table " + name
                                + " because the default of column " + c.name() + " of table " + other.name()
                                + " uses its sequence " + c.sequence());
                    }
                }
            }
            List<String> views = dependentViews(cat, name, cascade, "table");
            return new Edit<>(true, List.of(), List.of(name), List.of(), owned).withViews(List.of(), views);
        });
    }

    /**
     * Adds an index to a table's definition, write-only: writers keep it, queries do not read
     * it. Filling it from existing rows and then {@link #publishIndex publishing} it is the
     * caller's job (see {@code DdlExecutor}).
     */
    public TableDef createIndex(String table, String index, List<String> columns, boolean unique, boolean ifNotExists) {
        return createIndex(table, index, columns, unique, false, ifNotExists, List.of());
    }

    /** Adds an index, or with {@code constraint} the index of a UNIQUE constraint; write-only as above. */
    public TableDef createIndex(String table, String index, List<String> columns, boolean unique, boolean constraint,
                                boolean ifNotExists, List<String> descending) {
        return change(cat -> {
            TableDef t = cat.tableMap().get(table);
            if (t == null) {
                throw undefined("table " + table + " does not exist");
            }
            if (cat.tableOfIndex(index).isPresent()) {
                if (ifNotExists) {
                    return Edit.none(cat.tableOfIndex(index).get());
                }
                throw TellException.of(ErrorCode.DUPLICATE_OBJECT, "index " + index + " already exists");
            }
            TableDef next = t.withIndex(index, columns, unique, constraint, true, descending);
            return Edit.put(next, next);
        });
    }

    /**
     * Empties tables (TRUNCATE) by giving each the fresh storage of a new table id in one
     * catalog change; the old storage is the sweeper's, as a dropped table's is. Transactions
     * that began before write nothing more to it (their commits fail the catalog check).
     * A table another table's foreign key references is emptied only with that table
     * ({@code cascade} adds it); with {@code restartIdentity} the sequences the tables own
     * start over.
     */
    public void truncate(List<String> names, boolean restartIdentity, boolean cascade) {
        change(cat -> {
            java.util.LinkedHashSet<String> emptied = new java.util.LinkedHashSet<>();
            for (String n : names) {
                if (!cat.tableMap().containsKey(n)) {
                    throw undefined("table " + n + " does not exist");
                }
                emptied.add(n);
            }
            for (boolean grew = true; grew; ) {
                grew = false;
                for (TableDef other : cat.tableMap().values()) {
                    if (emptied.contains(other.name())) {
                        continue;
                    }
                    for (ForeignKeyDef fk : other.foreignKeys()) {
                        if (emptied.contains(fk.refTable())) {
                            if (!cascade) {
                                throw TellException.of(ErrorCode.FEATURE_NOT_SUPPORTED, "cannot truncate table "
                                        + fk.refTable() + ": foreign key " + fk.name() + " of table " + other.name()
                                        + " references it (truncate that table too, or use CASCADE)");
                            }
                            grew |= emptied.add(other.name());
                        }
                    }
                }
            }
            List<TableDef> puts = new ArrayList<>();
            for (String n : emptied) {
                puts.add(cat.tableMap().get(n).withStorage(store.increment(DOMAIN, TABLE_ID_COUNTER, 1)));
            }
            List<SequenceDef> old = new ArrayList<>();
            List<SequenceDef> restarted = new ArrayList<>();
            if (restartIdentity) {
                for (SequenceDef q : cat.sequenceMap().values()) {
                    if (q.ownerTable() != null && emptied.contains(q.ownerTable())) {
                        old.add(q);
                        restarted.add(q.withId(store.increment(DOMAIN, SEQUENCE_ID_COUNTER, 1))); // a fresh counter
                    }
                }
            }
            return new Edit<>(null, puts, List.of(), restarted, old);
        });
    }

    /**
     * Alters a table: {@code changes} apply together as one catalog change, with the other
     * tables and sequences they touch (foreign keys naming the table, owned sequences). Returns
     * the new definition; null when the table does not exist and {@code ifExists}.
     */
    public TableDef alterTable(String name, boolean ifExists, List<TableChange> changes) {
        return change(cat -> {
            TableDef t = cat.tableMap().get(name);
            if (t == null) {
                if (ifExists) {
                    return Edit.none(null);
                }
                throw undefined("table " + name + " does not exist");
            }
            TableAlteration a = new TableAlteration(cat, t);
            for (TableChange c : changes) {
                a.apply(c);
            }
            Map<String, TableDef> changed = a.changedTables();
            List<String> renamedFrom = changed.entrySet().stream()
                    .filter(e -> !e.getKey().equals(e.getValue().name())).map(Map.Entry::getKey).toList();
            return new Edit<>(a.def(), List.copyOf(changed.values()), renamedFrom, a.changedSequences(),
                    a.droppedSequences());
        });
    }

    /** Makes a write-only index readable by queries; UNDEFINED_OBJECT when it is gone. */
    public TableDef publishIndex(String index) {
        return change(cat -> {
            TableDef t = cat.tableOfIndex(index).orElseThrow(() -> undefined("index " + index + " does not exist"));
            if (!t.index(index).writeOnly()) {
                return Edit.none(t);
            }
            TableDef next = t.withIndexPublished(index);
            return Edit.put(next, next);
        });
    }

    /** Drops an index created by CREATE INDEX; false when it did not exist and {@code ifExists}. */
    public boolean dropIndex(String index, boolean ifExists) {
        return change(cat -> {
            TableDef t = cat.tableOfIndex(index).orElse(null);
            if (t == null) {
                if (ifExists) {
                    return Edit.none(false);
                }
                throw undefined("index " + index + " does not exist");
            }
            if (t.index(index).constraint()) {
                throw TellException.of(ErrorCode.INVALID_DEFINITION, "index " + index
                        + " backs a UNIQUE constraint of table " + t.name() + " and cannot be dropped alone");
            }
            return Edit.put(t.withoutIndex(index), true);
        });
    }

    /**
     * One DDL change against a catalog snapshot: the result, tables to (re)define (by name) and
     * to drop (by name; a rename drops the old name and puts the new), sequences to add or drop,
     * views to put or drop, and the schemas besides PUBLIC when they change (null: unchanged).
     */
    private record Edit<T>(T result, List<TableDef> puts, List<String> drops, List<SequenceDef> addSequences,
                           List<SequenceDef> dropSequences, List<ViewDef> putViews, List<String> dropViews,
                           java.util.SortedSet<String> schemas) {
        Edit(T result, List<TableDef> puts, List<String> drops, List<SequenceDef> addSequences,
             List<SequenceDef> dropSequences) {
            this(result, puts, drops, addSequences, dropSequences, List.of(), List.of(), null);
        }

        static <T> Edit<T> none(T result) {
            return new Edit<>(result, List.of(), List.of(), List.of(), List.of());
        }

        static <T> Edit<T> put(TableDef def, T result) {
            return new Edit<>(result, List.of(def), List.of(), List.of(), List.of());
        }

        Edit<T> withSequences(List<SequenceDef> add, List<SequenceDef> drop) {
            return new Edit<>(result, puts, drops, add, drop, putViews, dropViews, schemas);
        }

        Edit<T> withViews(List<ViewDef> put, List<String> drop) {
            return new Edit<>(result, puts, drops, addSequences, dropSequences, put, drop, schemas);
        }

        Edit<T> withSchemas(java.util.SortedSet<String> all) {
            return new Edit<>(result, puts, drops, addSequences, dropSequences, putViews, dropViews, all);
        }

        boolean changes() {
            return !puts.isEmpty() || !drops.isEmpty() || !addSequences.isEmpty() || !dropSequences.isEmpty()
                    || !putViews.isEmpty() || !dropViews.isEmpty() || schemas != null;
        }
    }

    private <T> T change(Function<CatalogSnapshot, Edit<T>> edit) {
        for (int attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
            CatalogSnapshot cat = snapshot();
            Edit<T> e = edit.apply(cat);
            if (!e.changes()) {
                return e.result();
            }
            Map<String, DirEntry> entries = new TreeMap<>();
            cat.tableMap().forEach((name, t) -> entries.put(name, new DirEntry(t.id(), cat.defIds().get(name))));
            e.drops().forEach(entries::remove);
            List<Long> newDefIds = new ArrayList<>();
            for (TableDef def : e.puts()) {
                long defId = store.increment(DOMAIN, DEF_ID_COUNTER, 1);
                newDefIds.add(defId);
                WriteResult w = store.write(WriteOp.insert(DOMAIN, defKey(defId), CatalogCodec.encodeTable(def)));
                if (!w.written()) {
                    throw TellException.of(ErrorCode.INTERNAL, "catalog definition record " + defId + " already exists");
                }
                entries.put(def.name(), new DirEntry(def.id(), defId));
            }
            Map<String, SequenceDef> sequences = new TreeMap<>(cat.sequenceMap());
            e.dropSequences().forEach(q -> sequences.remove(q.name()));
            e.addSequences().forEach(q -> sequences.put(q.name(), q));
            Map<String, ViewDef> views = new TreeMap<>(cat.viewMap());
            e.dropViews().forEach(views::remove);
            e.putViews().forEach(v -> views.put(v.name(), v));
            java.util.SortedSet<String> schemas = new java.util.TreeSet<>(e.schemas() != null ? e.schemas() : cat.schemas());
            schemas.remove(Names.DEFAULT_SCHEMA);
            byte[] dir = CatalogCodec.encodeDirectory(new Directory(cat.version() + 1, entries, sequences, views,
                    schemas));
            Expect expect = cat.storeVersion() == 0 ? Expect.ABSENT : Expect.version(cat.storeVersion());
            if (store.write(WriteOp.put(DOMAIN, DIR_KEY, dir, expect)).written()) {
                for (SequenceDef q : e.dropSequences()) { // its counter; ids are never reused, so a leftover is harmless
                    if (!sequences.containsKey(q.name()) || sequences.get(q.name()).id() != q.id()) {
                        store.write(WriteOp.delete(SEQUENCE_DOMAIN, sequenceKey(q.id()), Expect.ANY));
                    }
                }
                snapshot();
                return e.result();
            }
            for (long defId : newDefIds) {
                store.write(WriteOp.delete(DOMAIN, defKey(defId), Expect.ANY)); // never published
            }
            LockSupport.parkNanos(ThreadLocalRandom.current().nextLong(100_000, 200_000L * Math.min(attempt, 20)));
        }
        throw TellException.of(ErrorCode.TX_CONFLICT, "catalog changed concurrently " + MAX_ATTEMPTS + " times in a row");
    }

    private CatalogSnapshot load(Versioned dirRecord) {
        if (dirRecord == null) {
            return new CatalogSnapshot(0, 0, Map.of(), Map.of(), Map.of(), Map.of(), java.util.Set.of());
        }
        Directory dir = CatalogCodec.decodeDirectory(dirRecord.value());
        List<RecordKey> missing = new ArrayList<>();
        for (DirEntry e : dir.entries().values()) {
            if (!defsById.containsKey(e.defId())) {
                missing.add(new RecordKey(DOMAIN, defKey(e.defId())));
            }
        }
        if (!missing.isEmpty()) {
            List<Versioned> got = store.getAll(missing);
            for (int i = 0; i < missing.size(); i++) {
                if (got.get(i) == null) {
                    throw TellException.of(ErrorCode.CORRUPT_DATA, "catalog directory names a missing definition "
                            + missing.get(i));
                }
                defsById.put(defIdOf(missing.get(i).key()), CatalogCodec.decodeTable(got.get(i).value()));
            }
        }
        Map<String, TableDef> tables = new TreeMap<>();
        Map<String, Long> defIds = new TreeMap<>();
        dir.entries().forEach((name, e) -> {
            tables.put(name, defsById.get(e.defId()));
            defIds.put(name, e.defId());
        });
        return new CatalogSnapshot(dir.version(), dirRecord.version(), tables, defIds, dir.sequences(), dir.views(),
                dir.schemas());
    }

    /** Keeps the newer of the cached and the given snapshot (store versions only grow). */
    private synchronized CatalogSnapshot remember(CatalogSnapshot s) {
        if (s.storeVersion() > cached.storeVersion()) {
            cached = s;
        }
        return cached;
    }

    /** Tables and sequences share one name space, as relations do in PostgreSQL; their schema must exist. */
    private static void checkRelationNameFree(CatalogSnapshot cat, String name) {
        checkSchema(cat, Names.schemaOf(name));
        if (cat.tableMap().containsKey(name)) {
            throw TellException.of(ErrorCode.DUPLICATE_OBJECT, "table " + name + " already exists");
        }
        if (cat.sequenceMap().containsKey(name)) {
            throw TellException.of(ErrorCode.DUPLICATE_OBJECT, "sequence " + name + " already exists");
        }
        if (cat.viewMap().containsKey(name)) {
            throw TellException.of(ErrorCode.DUPLICATE_OBJECT, "view " + name + " already exists");
        }
    }

    private static void checkSchema(CatalogSnapshot cat, String schema) {
        if (!cat.hasSchema(schema)) {
            throw TellException.of(ErrorCode.INVALID_SCHEMA_NAME, "schema " + schema + " does not exist");
        }
    }

    private static void checkIndexNameFree(CatalogSnapshot cat, String index) {
        if (cat.tableOfIndex(index).isPresent()) {
            throw TellException.of(ErrorCode.DUPLICATE_OBJECT, "index " + index + " already exists");
        }
    }

    /** {@code fk} checked against the catalog, with the referenced primary key filled in when it names no columns. */
    private static ForeignKeyDef checkForeignKey(CatalogSnapshot cat, TableDef def, ForeignKeyDef fk) {
        return checkForeignKey(def, fk, cat.tableMap()::get);
    }

    /** {@code fk} of {@code def} checked against the tables {@code tables} finds by name. */
    static ForeignKeyDef checkForeignKey(TableDef def, ForeignKeyDef fk, Function<String, TableDef> tables) {
        TableDef ref = fk.refTable().equals(def.name()) ? def : tables.apply(fk.refTable());
        if (ref == null) {
            throw TellException.of(ErrorCode.INVALID_DEFINITION, "foreign key " + fk.name() + " of table "
                    + def.name() + " references unknown table " + fk.refTable());
        }
        List<String> refCols = fk.refColumns().isEmpty() ? ref.primaryKey() : fk.refColumns();
        if (refCols.size() != fk.columns().size()) {
            throw TellException.of(ErrorCode.INVALID_DEFINITION, "foreign key " + fk.name() + " of table "
                    + def.name() + " has " + fk.columns().size() + " columns but references " + refCols.size());
        }
        for (String c : refCols) {
            if (ref.columnIndex(c) < 0) {
                throw TellException.of(ErrorCode.INVALID_DEFINITION, "foreign key " + fk.name() + " of table "
                        + def.name() + " references unknown column " + c + " of " + ref.name());
            }
        }
        java.util.Set<String> keyed = java.util.Set.copyOf(refCols);
        boolean unique = !ref.primaryKey().isEmpty() && keyed.equals(java.util.Set.copyOf(ref.primaryKey()))
                || ref.indexes().stream().anyMatch(ix -> ix.unique() && keyed.equals(java.util.Set.copyOf(ix.columns())));
        if (!unique) {
            throw TellException.of(ErrorCode.INVALID_DEFINITION, "foreign key " + fk.name() + " of table " + def.name()
                    + ": no primary key or unique constraint of table " + ref.name() + " is on " + refCols);
        }
        return fk.with(fk.name(), fk.columns(), ref.name(), refCols);
    }

    private static TellException undefined(String message) {
        return TellException.of(ErrorCode.UNDEFINED_OBJECT, message);
    }

    private static byte[] sequenceKey(long id) {
        return bytes(Long.toString(id));
    }

    private static byte[] defKey(long defId) {
        return bytes("def/" + defId);
    }

    private static long defIdOf(byte[] key) {
        return Long.parseLong(new String(key, StandardCharsets.UTF_8).substring(4));
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
