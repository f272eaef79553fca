package io.tell.bench.process;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A child JVM running a main class of this JVM's class path (the {@code tell.jar}, or a test's
 * class path), with the same {@code java}.
 */
public final class JavaProcess {
    /** As the {@code tell} launcher sets it (docs/benchmarks.md, "The JIT's inlining"); {@code jvmOptions} come after, so they win. */
    public static final String SMALLER_COMPILES = "-XX:InlineSmallCode=1000";

    private JavaProcess() {
    }

    /** A process builder for {@code java -cp <this class path> mainClass args…}. */
    public static ProcessBuilder builder(String mainClass, List<String> args) {
        return builder(mainClass, List.of(), args);
    }

    /** A process builder for {@code java <jvmOptions> -cp <this class path> mainClass args…}. */
    public static ProcessBuilder builder(String mainClass, List<String> jvmOptions, List<String> args) {
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.add(SMALLER_COMPILES);
        cmd.addAll(jvmOptions);
        if (Runtime.version().feature() >= 24) {
            // Netty and Lettuce still use sun.misc.Unsafe memory access, which JDK 24+ warns about.
            cmd.add("--sun-misc-unsafe-memory-access=allow");
        }
        cmd.add("-cp");
        cmd.add(System.getProperty("java.class.path"));
        cmd.add(mainClass);
        cmd.addAll(args);
        return new ProcessBuilder(cmd);
    }
}
