package io.tell.sql.engine;

import io.tell.error.ErrorCode;
import io.tell.error.TellException;
import io.tell.sql.Catalog;
import io.tell.sql.CastSyntax;
import io.tell.sql.CatalogSnapshot;
import io.tell.sql.ConstraintErrors;
import io.tell.sql.PreparedSql;
import io.tell.sql.ProcessingNode;
import io.tell.sql.SchemaPath;
import io.tell.sql.SqlFrontEnd;
import io.tell.sql.SqlResult;
import io.tell.sql.SqlSession;
import io.tell.sql.exec.Cursor;
import io.tell.sql.exec.ExecContext;
import io.tell.txn.Isolation;
import io.tell.txn.Transaction;
import java.util.ArrayList;
import java.util.List;

/**
 * The SQL session of one connection. A transaction begins with the first statement that needs
 * one and checks the catalog once, with that statement's first read of records, so DDL
 * committed by any node before it began is seen; plans come from the node's {@link PlanCache}. Inside an explicit
 * transaction, a statement that fails on bad SQL or bad data changes nothing and the
 * transaction goes on; a conflict or an unreachable store rolls the transaction back, and it
 * stays failed (every statement and commit say so) until the application rolls back.
 */
public final class Session implements SqlSession {
    private final ProcessingNode node;
    private final PlanCache plans;
    private boolean autoCommit = true;
    private Isolation isolation = Isolation.SNAPSHOT;
    private boolean readOnly;
    private boolean statementChecks;
    private SchemaPath path = SchemaPath.DEFAULT;
    /** Where the open transaction's statements take sequence values, under its catalog. */
    private ExecContext.SequenceSource sequenceValues;
    /** The value this session last took from each sequence (CURRENT VALUE FOR, currval). */
    private final java.util.Map<String, Long> lastValues = new java.util.HashMap<>();
    private Transaction tx;
    /** The open transaction's savepoints, oldest first. */
    private final List<Named> savepoints = new ArrayList<>();
    private CatalogSnapshot catalog;
    /** The open transaction's catalog is this node's cached one, not yet checked against the store. */
    private boolean catalogUnchecked;
    private TellException failed;
    private volatile ExecContext running;
    /** Trees of the unique keys INSERT … ON CONFLICT checked in the open transaction: a duplicate there at commit is a race. */
    private final java.util.Set<String> upserted = new java.util.HashSet<>();
    private boolean closed;

    private record Named(String name, Transaction.Savepoint point) {
    }

    public Session(ProcessingNode node, PlanCache plans) {
        this.node = node;
        this.plans = plans;
    }

    @Override
    public PreparedSql prepare(String text) {
        checkOpen();
        if (Ddl.isDdl(text)) {
            return Ddl.prepare(text);
        }
        String sql = CastSyntax.rewrite(text);
        CatalogSnapshot cat = tx != null ? catalog : node.catalog().cached();
        try {
            PreparedSql lifted = lifted(sql, cat);
            return lifted != null ? lifted : plans.plan(sql, cat, path);
        } catch (TellException e) {
            if (tx != null || e.code() != ErrorCode.SQL_INVALID) {
                throw e;
            }
            CatalogSnapshot fresh = node.catalog().snapshot(); // another node may have created the table
            if (fresh.version() == cat.version()) {
                throw e;
            }
            return plans.plan(sql, fresh, path);
        }
    }

    @Override
    public PreparedSql prepareReturning(String sql, List<String> columns) {
        checkOpen();
        String text = SqlText.trim(sql);
        String verb = SqlText.firstWord(text);
        boolean dml = verb.equals("INSERT") || verb.equals("UPDATE") || verb.equals("DELETE");
        if (!dml || SqlText.withoutReturning(text) != null) {
            return prepare(sql);
        }
        CatalogSnapshot cat = tx != null ? catalog : node.catalog().snapshot();
        return prepare(text + " RETURNING " + ReturningClause.keyList(plans.frontEnd(cat, path), SqlFrontEnd.parse(text),
                columns));
    }

    /** {@code sql} through the plan of its lifted form, or null when that does not apply exactly. */
    private PreparedSql lifted(String sql, CatalogSnapshot cat) {
        Literals.Lifted lifted = Literals.lift(sql);
        if (lifted == null || plans.unliftable(lifted.sql(), cat, path)) {
            return null;
        }
        try {
            Plan plan = plans.plan(lifted.sql(), cat, path);
            return new LiftedSql(sql, plan, Params.coerce(lifted.values(), plan.parameterTypes()));
        } catch (TellException | UnsupportedOperationException e) {
            // Calcite cannot always type a parameter where a literal stood: in
            // SUM(CASE WHEN c = ? …) / SUM(…) it derives the quotient's type before inferring
            // the parameter's and fails in Util.needToImplement. The exact text plans; any
            // error of its own is then the statement's error.
            plans.markUnliftable(lifted.sql(), cat, path);
            return null;
        }
    }

    @Override
    public SqlResult execute(PreparedSql statement, List<?> params, long maxRows, long timeoutMillis) {
        long started = System.nanoTime();
        try {
            return run(statement, params, maxRows, timeoutMillis);
        } catch (RuntimeException e) {
            node.metrics().failed(e);
            throw ConstraintErrors.readable(node.catalog().cached(), e);
        } finally {
            node.metrics().statement(statement.kind(), System.nanoTime() - started);
        }
    }

    private SqlResult run(PreparedSql statement, List<?> params, long maxRows, long timeoutMillis) {
        try {
            return runOnce(statement, params, maxRows, timeoutMillis, true);
        } catch (StaleCatalog stale) {
            // The transaction this statement began ran on a catalog another node's DDL had
            // replaced; it is rolled back unseen. Again, under the store's catalog read first.
            return runOnce(statement, params, maxRows, timeoutMillis, false);
        }
    }

    /**
     * Runs one statement. A transaction it begins takes the catalog this node has cached when
     * {@code speculative}, and the store's directory version rides the statement's first read
     * of records: a statement on an outdated catalog ends in {@link StaleCatalog}, before any
     * row is returned or anything is committed.
     */
    private SqlResult runOnce(PreparedSql statement, List<?> params, long maxRows, long timeoutMillis,
                              boolean speculative) {
        checkOpen();
        if (statement.kind() == PreparedSql.Kind.DDL) {
            if (tx != null) {
                commit();
            }
            Ddl.execute(node, statement, path);
            return Results.count(0);
        }
        checkNotFailed();
        Plan plan;
        List<?> values = params;
        if (statement instanceof LiftedSql l) {
            plan = l.plan();
            values = java.util.Arrays.asList(l.values());
        } else {
            plan = (Plan) statement;
        }
        if (plan.writes() && readOnly) {
            throw TellException.of(ErrorCode.READ_ONLY, "the connection is read-only");
        }
        boolean implicit = tx == null;
        if (implicit) {
            begin(autoCommit && !plan.writes() && !plan.forUpdate(), speculative);
        }
        ExecContext ctx = null;
        // In an explicit transaction a statement is atomic: a failed one leaves none of its writes.
        Transaction.Savepoint atomic = !autoCommit && plan.writes() ? tx.savepoint() : null;
        try {
            if (plan.catalogVersion() != catalog.version()
                    || plan.sizesEpoch() != Plan.ANY_SIZES && plan.sizesEpoch() != node.tableSizes().epoch()) {
                plan = plans.plan(plan.sql(), catalog, path);
            }
            upserted.addAll(plan.upsertTrees());
            ctx = new ExecContext(tx, Params.coerce(values, plan.parameterTypes()), null, timeoutMillis);
            ctx.useSequences(sequenceValues);
            ctx.useWorkers(node.workers());
            ctx.checkAtStatement(statementChecks && !autoCommit);
            running = ctx;
            Cursor c = plan.exec().open(ctx);
            SqlResult result;
            if (plan.kind() == PreparedSql.Kind.QUERY) {
                List<Object[]> rows = new ArrayList<>();
                for (Object[] r = c.next(); r != null && (maxRows <= 0 || rows.size() < maxRows); r = c.next()) {
                    rows.add(r);
                }
                result = Results.rows(rows);
            } else {
                result = Results.count((Long) c.next()[0]);
            }
            if (catalogUnchecked && catalogStale()) {
                throw discardStale();
            }
            if (atomic != null) {
                tx.release(atomic);
            }
            if (implicit && autoCommit) {
                commitOpen();
            }
            return result;
        } catch (StaleCatalog e) {
            throw e;
        } catch (RuntimeException e) {
            if (catalogUnchecked && tx != null && staleAfter(e)) {
                throw discardStale(); // the failure may be the outdated catalog's (a row of another layout)
            }
            if (atomic != null && tx != null && tx.isActive()) {
                tx.rollbackTo(atomic);
                tx.release(atomic);
            }
            abortAfter(e, implicit && autoCommit);
            throw e;
        } finally {
            running = null;
        }
    }

    /**
     * Begins a transaction under the newest catalog. A read-write one commits only if the
     * catalog is still that one when it logs (a check riding the commit's first batch): no write
     * made under one catalog version lands after another was published (see {@code DdlExecutor}).
     * When {@code speculative} the catalog is the one this node has cached and the store's
     * version of it is read along with the transaction's first records ({@link Transaction#readAlong}),
     * after the transaction began; its first statement checks it before it returns anything.
     */
    private void begin(boolean readOnlyTx, boolean speculative) {
        catalog = speculative ? node.catalog().cached() : node.catalog().snapshot();
        sequenceValues = sequenceValues(catalog);
        node.keepIndexesOf(catalog);
        tx = readOnlyTx || readOnly
                ? node.transactions().beginReadOnly(isolation) : node.transactions().begin(isolation);
        catalogUnchecked = speculative;
        if (speculative) {
            tx.readAlong(Catalog.DIRECTORY);
        }
        if (!tx.readOnly() && catalog.storeVersion() != 0) {
            tx.requireUnchanged(Catalog.DIRECTORY, catalog.storeVersion());
        }
    }

    /**
     * Whether the catalog the open transaction began under is not the store's; its version came
     * along with the first records read, or is read now (one round trip) if none were.
     */
    private boolean catalogStale() {
        catalogUnchecked = false;
        long seen = tx.alongVersion();
        if (seen < 0) {
            seen = node.catalog().snapshot().storeVersion();
        }
        return seen != catalog.storeVersion();
    }

    /**
     * Whether the statement failed with {@code e} on an outdated catalog. A retriable failure
     * (the store or commit manager unreachable, a conflict) is not the catalog's: it is checked
     * only when the directory's version already came along; false when the store cannot say.
     */
    private boolean staleAfter(RuntimeException e) {
        if (tx.alongVersion() < 0 && e instanceof TellException te && te.code().retriable()) {
            return false;
        }
        try {
            return catalogStale();
        } catch (RuntimeException unreachable) {
            return false;
        }
    }

    /** Rolls back the transaction a statement began on an outdated catalog; nothing of it was seen. */
    private StaleCatalog discardStale() {
        Transaction t = tx;
        tx = null;
        upserted.clear();
        rollbackQuietly(t);
        return new StaleCatalog();
    }

    /** A statement ran on an outdated catalog and its transaction was rolled back: run it again. */
    private static final class StaleCatalog extends RuntimeException {
        StaleCatalog() {
            super(null, null, false, false);
        }
    }

    /** After a failed statement: auto-commit rolls back; an explicit transaction survives only data errors. */
    private void abortAfter(RuntimeException e, boolean statementTx) {
        if (tx == null) {
            return;
        }
        boolean survives = !statementTx && e instanceof TellException te && !te.code().retriable()
                && te.code() != ErrorCode.TX_COMMIT_PENDING && te.code() != ErrorCode.INTERNAL && tx.isActive();
        if (survives) {
            return;
        }
        Transaction t = tx;
        tx = null;
        upserted.clear();
        savepoints.clear();
        if (!statementTx) {
            failed = e instanceof TellException te ? te : TellException.of(ErrorCode.INTERNAL, String.valueOf(e), e);
        }
        rollbackQuietly(t);
    }

    /** The values NEXT VALUE FOR gives under {@code cat}; CURRENT VALUE FOR repeats this session's last one. */
    private ExecContext.SequenceSource sequenceValues(CatalogSnapshot cat) {
        return new ExecContext.SequenceSource() {
            @Override
            public long next(String written) {
                String name = path.sequence(cat, written);
                long v = node.sequences().next(cat, name);
                lastValues.put(name, v);
                return v;
            }

            @Override
            public long current(String written) {
                String name = path.sequence(cat, written);
                Long v = lastValues.get(name);
                if (v == null) {
                    cat.sequence(name).orElseThrow(() ->
                            TellException.of(ErrorCode.UNDEFINED_OBJECT, "sequence " + name + " does not exist"));
                    throw TellException.of(ErrorCode.OBJECT_NOT_IN_STATE, "currval of sequence \"" + name
                            + "\" is not yet defined in this session");
                }
                return v;
            }
        };
    }

    @Override
    public void setStatementChecks(boolean on) {
        statementChecks = on;
    }

    @Override
    public SchemaPath schemaPath() {
        return path;
    }

    @Override
    public void setSchemaPath(SchemaPath path) {
        this.path = path;
    }

    @Override
    public boolean autoCommit() {
        return autoCommit;
    }

    @Override
    public void setAutoCommit(boolean on) {
        checkOpen();
        if (on && !autoCommit && (tx != null || failed != null)) {
            commit();
        }
        autoCommit = on;
    }

    @Override
    public boolean inTransaction() {
        return tx != null || failed != null;
    }

    @Override
    public void commit() {
        checkOpen();
        if (failed != null) {
            TellException f = failed;
            failed = null;
            throw TellException.of(f.code().retriable() ? f.code() : ErrorCode.TX_CONFLICT,
                    "the transaction was rolled back after an error: " + f.getMessage(), f);
        }
        savepoints.clear();
        if (tx == null) {
            return;
        }
        try {
            commitOpen();
        } catch (RuntimeException e) {
            throw ConstraintErrors.readable(node.catalog().cached(), e);
        }
    }

    /**
     * Commits the open transaction. An upsert that found no row, and so inserted, fails its
     * commit on a duplicate of a key it checked only when another transaction inserted the key
     * meanwhile: that is a race (40001), and a retry finds the row.
     */
    private void commitOpen() {
        Transaction t = tx;
        java.util.Set<String> checked = java.util.Set.copyOf(upserted);
        tx = null;
        upserted.clear();
        try {
            t.commit();
        } catch (io.tell.txn.DuplicateKeyException e) {
            if (!checked.contains(e.index())) {
                throw e;
            }
            throw TellException.of(ErrorCode.TX_CONFLICT, "another transaction inserted a key this INSERT ... ON CONFLICT"
                    + " inserted, while it ran; retry it (it then finds that row): " + e.getMessage(), e);
        }
    }

    @Override
    public void rollback() {
        checkOpen();
        failed = null;
        savepoints.clear();
        upserted.clear();
        if (tx != null) {
            Transaction t = tx;
            tx = null;
            t.rollback();
        }
    }

    @Override
    public void setSavepoint(String name) {
        checkOpen();
        if (autoCommit) {
            throw TellException.of(ErrorCode.TX_STATE, "SAVEPOINT can only be used in a transaction (auto-commit is on)");
        }
        checkNotFailed();
        if (tx == null) {
            begin(false, false);
        }
        savepoints.add(new Named(name, tx.savepoint()));
    }

    @Override
    public void rollbackToSavepoint(String name) {
        checkOpen();
        int at = savepoint(name);
        checkNotFailed();
        releaseAfter(at);
        tx.rollbackTo(savepoints.get(at).point());
    }

    @Override
    public void releaseSavepoint(String name) {
        checkOpen();
        int at = savepoint(name);
        checkNotFailed();
        releaseAfter(at - 1);
    }

    /** The newest savepoint named {@code name}; NO_SUCH_SAVEPOINT when there is none. */
    private int savepoint(String name) {
        for (int i = savepoints.size() - 1; i >= 0; i--) {
            if (savepoints.get(i).name().equals(name)) {
                return i;
            }
        }
        throw TellException.of(ErrorCode.NO_SUCH_SAVEPOINT, "savepoint \"" + name + "\" does not exist");
    }

    /** Releases the savepoints after position {@code at}. */
    private void releaseAfter(int at) {
        while (savepoints.size() > at + 1) {
            tx.release(savepoints.remove(savepoints.size() - 1).point());
        }
    }

    private void checkNotFailed() {
        if (failed != null) {
            throw TellException.of(ErrorCode.TX_STATE, "the transaction was rolled back after an error ("
                    + failed.getMessage() + "); roll back to go on");
        }
    }

    @Override
    public Isolation isolation() {
        return isolation;
    }

    @Override
    public void setIsolation(Isolation isolation) {
        if (tx != null) {
            throw TellException.of(ErrorCode.TX_STATE, "cannot change the isolation level inside a transaction");
        }
        this.isolation = isolation;
    }

    @Override
    public boolean readOnly() {
        return readOnly;
    }

    @Override
    public void setReadOnly(boolean readOnly) {
        if (tx != null) {
            throw TellException.of(ErrorCode.TX_STATE, "cannot change read-only inside a transaction");
        }
        this.readOnly = readOnly;
    }

    @Override
    public void cancel() {
        ExecContext ctx = running;
        if (ctx != null) {
            ctx.cancel();
        }
    }

    @Override
    public ProcessingNode node() {
        return node;
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        node.sessionClosed();
        failed = null;
        if (tx != null) {
            rollbackQuietly(tx);
            tx = null;
        }
    }

    private static void rollbackQuietly(Transaction t) {
        try {
            t.rollback();
        } catch (RuntimeException ignored) {
            // the transaction ends either way; its writes are reverted in the background if the store is down
        }
    }

    private void checkOpen() {
        if (closed) {
            throw TellException.of(ErrorCode.TX_STATE, "the session is closed");
        }
    }
}
