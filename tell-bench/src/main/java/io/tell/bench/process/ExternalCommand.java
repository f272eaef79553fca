package io.tell.bench.process;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Runs a program to its end and collects what it printed (stdout and stderr together). */
final class ExternalCommand {

    /** How it ended: the exit code (-1 when it could not start or timed out) and its output. */
    record Result(int exit, String output) {
        boolean ok() {
            return exit == 0;
        }
    }

    private ExternalCommand() {
    }

    static Result run(List<String> command, long timeoutSeconds) throws InterruptedException {
        Process p;
        try {
            File out = File.createTempFile("tell-cmd-", ".log");
            out.deleteOnExit();
            p = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(out).start();
            boolean done = p.waitFor(timeoutSeconds, TimeUnit.SECONDS);
            if (!done) {
                p.destroyForcibly();
            }
            String output = java.nio.file.Files.readString(out.toPath(), StandardCharsets.UTF_8).trim();
            out.delete();
            return new Result(done ? p.exitValue() : -1, done ? output : output + " (timed out after " + timeoutSeconds + " s)");
        } catch (IOException e) {
            return new Result(-1, "cannot run " + command.get(0) + ": " + e.getMessage());
        }
    }

    /** The executable {@code name} on the PATH, or null. */
    static String onPath(String name) {
        for (String dir : System.getenv().getOrDefault("PATH", "/usr/bin:/bin").split(File.pathSeparator)) {
            File f = new File(dir, name);
            if (f.canExecute()) {
                return f.getPath();
            }
        }
        return null;
    }
}
