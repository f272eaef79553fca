package io.tell.bench.compare;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/** The machine a comparison ran on, in one line for the report: cores, memory, CPU, OS and Java. */
final class Machine {
    private Machine() {
    }

    static String describe() {
        long memory = ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os
                ? os.getTotalMemorySize() : 0;
        return String.format(Locale.ROOT, "%d cores, %.1f GiB memory%s, %s %s %s, Java %s (%s), max heap %.1f GiB",
                Runtime.getRuntime().availableProcessors(), memory / (double) (1L << 30), cpu(), System.getProperty("os.name"),
                System.getProperty("os.version"), System.getProperty("os.arch"), System.getProperty("java.version"),
                System.getProperty("java.vendor"), Runtime.getRuntime().maxMemory() / (double) (1L << 30));
    }

    private static String cpu() {
        try {
            return Files.readAllLines(Path.of("/proc/cpuinfo")).stream().filter(l -> l.startsWith("model name"))
                    .map(l -> ", " + l.substring(l.indexOf(':') + 1).trim()).findFirst().orElse("");
        } catch (IOException e) {
            return "";
        }
    }
}
