package io.tell.metrics;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.tell.store.CountingRecordStore;
import io.tell.txn.CountingCommitManager;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * The meters one Tell component registers (a processing node, a commit manager), all tagged
 * alike, read from counters the component keeps anyway: registering costs nothing on the hot
 * path, and a registry reads them when it publishes. {@link #close} removes them again, so a
 * closed component leaves no meters behind. Names and tags: {@code docs/metrics.md}.
 */
public final class TellMeters implements AutoCloseable {
    private final MeterRegistry registry;
    private final Tags tags;
    private final List<Meter> meters = new java.util.concurrent.CopyOnWriteArrayList<>(); // own() may come from any thread
    private final List<Object> held = new ArrayList<>();

    public TellMeters(MeterRegistry registry, Tags tags) {
        this.registry = registry;
        this.tags = tags;
    }

    public MeterRegistry registry() {
        return registry;
    }

    public Tags tags() {
        return tags;
    }

    /** {@code tell.store.calls{op=read|write|increment|scan}}: store round trips (a batch counts one). */
    public TellMeters store(CountingRecordStore store) {
        counter("tell.store.calls", "store round trips (a batch counts one)", () -> store.counts().reads(), "op", "read");
        counter("tell.store.calls", "store round trips (a batch counts one)", () -> store.counts().writes(), "op", "write");
        counter("tell.store.calls", "store round trips (a batch counts one)", () -> store.counts().increments(), "op", "increment");
        counter("tell.store.calls", "store round trips (a batch counts one)", () -> store.counts().scans(), "op", "scan");
        counter("tell.store.bytes", "bytes of keys and values sent to the store, and of values received", store::bytesSent,
                "direction", "sent");
        counter("tell.store.bytes", "bytes of keys and values sent to the store, and of values received", store::bytesReceived,
                "direction", "received");
        return this;
    }

    /** {@code <name>{op=start|start_read_only|committed|aborted|validating}}: commit-manager calls made or served. */
    public TellMeters commitManager(String name, CountingCommitManager cm) {
        return commitManager(name, cm::counts);
    }

    public TellMeters commitManager(String name, Supplier<CountingCommitManager.Counts> counts) {
        String help = "commit-manager calls by kind";
        counter(name, help, () -> counts.get().readWriteStarts(), "op", "start");
        counter(name, help, () -> counts.get().readOnlyStarts(), "op", "start_read_only");
        counter(name, help, () -> counts.get().commits(), "op", "committed");
        counter(name, help, () -> counts.get().aborts(), "op", "aborted");
        counter(name, help, () -> counts.get().validating(), "op", "validating");
        return this;
    }

    /** A monotonic count read from {@code value}, with the component's tags and {@code extraTags}. */
    public TellMeters counter(String name, String description, Supplier<Number> value, String... extraTags) {
        held.add(value); // function counters hold their state weakly
        meters.add(FunctionCounter.builder(name, value, v -> v.get().doubleValue()).description(description)
                .tags(tags).tags(extraTags).register(registry));
        return this;
    }

    /** A current value read from {@code value}. */
    public TellMeters gauge(String name, String description, Supplier<Number> value, String... extraTags) {
        meters.add(Gauge.builder(name, value).strongReference(true).description(description).tags(tags).tags(extraTags).register(registry));
        return this;
    }

    /** Keeps {@code meter} (registered by the caller with these tags) to be removed on {@link #close}. */
    public <M extends Meter> M own(M meter) {
        meters.add(meter);
        return meter;
    }

    @Override
    public void close() {
        for (Meter m : meters) {
            registry.remove(m);
        }
        meters.clear();
    }
}
