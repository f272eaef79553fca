package io.tell.cli;

import java.util.ArrayList;
import java.util.List;

/**
 * {@code tell sql [JDBC_URL] [sqlline options]}: the sqlline shell connected to Tell (the
 * embedded default {@code jdbc:tell:mem:} unless a URL is given). Any JDBC URL on the class
 * path works, so the same shell reaches H2 or PostgreSQL for comparison.
 */
final class SqlCommand {
    static final String DEFAULT_URL = "jdbc:tell:mem:";
    private static final int DUMB_TERMINAL_WIDTH = 160;

    private SqlCommand() {
    }

    static int run(String[] args) throws Exception {
        List<String> argv = new ArrayList<>();
        String url = args.length > 0 && !args[0].startsWith("-") ? args[0] : DEFAULT_URL;
        argv.add("-u");
        argv.add(url);
        argv.add("-n");
        argv.add("tell");
        argv.add("-p");
        argv.add("");
        boolean widthGiven = false;
        for (int i = url.equals(DEFAULT_URL) && (args.length == 0 || args[0].startsWith("-")) ? 0 : 1; i < args.length; i++) {
            argv.add(args[i]);
            widthGiven |= args[i].toLowerCase(java.util.Locale.ROOT).startsWith("--maxwidth");
        }
        if (System.console() == null && !widthGiven) {
            // Without a terminal (input from a file or pipe) sqlline's table width would be 0.
            argv.add("--maxWidth=" + DUMB_TERMINAL_WIDTH);
        }
        sqlline.SqlLine.Status status = new sqlline.SqlLine().begin(argv.toArray(new String[0]), null, true);
        return status == sqlline.SqlLine.Status.OK ? 0 : 1;
    }
}
