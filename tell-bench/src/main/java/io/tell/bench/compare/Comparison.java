package io.tell.bench.compare;

import io.tell.bench.tpcc.TpccBenchmark;
import io.tell.bench.tpcc.TpccOptions;
import io.tell.bench.tpcc.TpccResult;
import java.io.PrintStream;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.util.ArrayList;
import java.util.List;

/**
 * TPC-C with the same driver, settings and seed against several databases, one after another in
 * this JVM: each is set up (servers started), loaded, run, checked and torn down before the next.
 * A database that is not available here is skipped; one whose run fails is reported as failed,
 * and the others still run.
 */
public final class Comparison {
    private final TpccOptions settings;
    private final List<ComparedDatabase> databases;
    private final Path out;
    private final PrintStream tables;
    private final PrintStream progress;

    /** {@code settings} for every run (their target is replaced); each run's table to {@code tables}, the rest to {@code progress}. */
    public Comparison(TpccOptions settings, List<ComparedDatabase> databases, Path out, PrintStream tables,
                      PrintStream progress) {
        this.settings = settings;
        this.databases = List.copyOf(databases);
        this.out = out;
        this.tables = tables;
        this.progress = progress;
    }

    public List<ComparedRun> run() throws InterruptedException {
        List<ComparedRun> runs = new ArrayList<>();
        for (ComparedDatabase db : databases) {
            progress.printf("%ncompare: === %s ===%n", db.name());
            runs.add(runOne(db));
            System.gc(); // the next database starts without the last one's garbage
        }
        return runs;
    }

    private ComparedRun runOne(ComparedDatabase db) throws InterruptedException {
        Path dir = out.resolve(db.key());
        ComparedDatabase.Setup setup;
        try {
            setup = db.open(dir);
        } catch (ComparedDatabase.Unavailable e) {
            progress.printf("compare: skipping %s: %s%n", db.name(), e.getMessage());
            return ComparedRun.skipped(db, e.getMessage());
        } catch (Exception e) {
            progress.printf("compare: %s could not be set up: %s%n", db.name(), e);
            return ComparedRun.failed(db, null, null, "set-up failed: " + e);
        }
        String url = setup.target().url();
        String description = setup.description();
        try (setup) {
            description = product(setup) + ", " + description;
            progress.printf("compare: %s: %s%n", url, description);
            TpccResult result = new TpccBenchmark(settings.withTarget(setup.target()).withOut(dir), tables, progress).run();
            return ComparedRun.ran(db, url, description, result);
        } catch (InterruptedException e) {
            throw e;
        } catch (Exception e) {
            progress.printf("compare: %s failed: %s%n", db.name(), e);
            return ComparedRun.failed(db, url, description, e.toString());
        }
    }

    private static String product(ComparedDatabase.Setup setup) throws Exception {
        try (Connection c = setup.target().connect()) {
            DatabaseMetaData md = c.getMetaData();
            return md.getDatabaseProductName() + " " + md.getDatabaseProductVersion() + " via " + md.getDriverName() + " "
                    + md.getDriverVersion();
        }
    }
}
