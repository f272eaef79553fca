package io.tell.bench.compare;

import io.tell.bench.tpcc.ResultJson;
import io.tell.bench.tpcc.TpccResult;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * A comparison run several times ({@code tell bench compare --rounds N}), the order of the
 * databases reversed every other round so that a machine's drift favours none: per pair (Tell
 * embedded / H2, Tell on Redis / PostgreSQL) the tpmC ratio of each round and their median,
 * which on a shared machine says more than any single run. Written as {@code rounds.md} and
 * {@code rounds.json}; each round's own comparison is in {@code round-<n>/}.
 */
public final class ComparisonRounds {
    /** One pair over the rounds: each round's tpmC of both sides (null where a side has no result) and ratio. */
    public record Pair(String of, String to, List<Double> ofTpmC, List<Double> toTpmC) {
        /** Each round's ratio, null where a side has no result. */
        public List<Double> ratios() {
            List<Double> out = new ArrayList<>(ofTpmC.size());
            for (int i = 0; i < ofTpmC.size(); i++) {
                Double a = ofTpmC.get(i);
                Double b = toTpmC.get(i);
                out.add(a == null || b == null || b == 0 ? null : a / b);
            }
            return out;
        }

        /** The median of the rounds' ratios (the mean of the middle two for an even count); null when none. */
        public Double median() {
            List<Double> known = new ArrayList<>(ratios().stream().filter(Objects::nonNull).toList());
            if (known.isEmpty()) {
                return null;
            }
            known.sort(null);
            int n = known.size();
            return n % 2 == 1 ? known.get(n / 2) : (known.get(n / 2 - 1) + known.get(n / 2)) / 2;
        }
    }

    private final List<Pair> pairs;
    private final Map<String, String> names;

    private ComparisonRounds(List<Pair> pairs, Map<String, String> names) {
        this.pairs = pairs;
        this.names = names;
    }

    /** The rounds' runs, one list per round; a pair with a side that took part in no round is left out. */
    public static ComparisonRounds of(List<List<ComparedRun>> rounds) {
        Map<String, String> names = new LinkedHashMap<>();
        rounds.forEach(runs -> runs.forEach(r -> names.put(r.key(), r.name())));
        List<Pair> pairs = new ArrayList<>();
        for (String[] pair : ComparisonReport.PAIRS) {
            List<Double> of = tpmC(rounds, pair[0]);
            List<Double> to = tpmC(rounds, pair[1]);
            if (names.containsKey(pair[0]) && names.containsKey(pair[1])) {
                pairs.add(new Pair(pair[0], pair[1], of, to));
            }
        }
        return new ComparisonRounds(pairs, names);
    }

    public List<Pair> pairs() {
        return pairs;
    }

    private static List<Double> tpmC(List<List<ComparedRun>> rounds, String key) {
        List<Double> out = new ArrayList<>(rounds.size());
        for (List<ComparedRun> runs : rounds) {
            TpccResult r = ComparedRun.result(runs, key);
            out.add(r == null ? null : r.tpmC());
        }
        return out;
    }

    public void print(PrintStream out) {
        out.println();
        out.print(markdown());
    }

    public void write(Path dir) throws IOException {
        Files.createDirectories(dir);
        Files.writeString(dir.resolve("rounds.md"), markdown());
        Files.writeString(dir.resolve("rounds.json"), json());
    }

    String markdown() {
        StringBuilder b = new StringBuilder();
        for (Pair p : pairs) {
            b.append(String.format(Locale.ROOT, "%s / %s over %d rounds (the order reversed every other round):%n%n",
                    name(p.of()), name(p.to()), p.ofTpmC().size()));
            b.append("| round | ").append(name(p.of())).append(" tpmC | ").append(name(p.to())).append(" tpmC | ratio |\n");
            b.append("| --- | --- | --- | --- |\n");
            List<Double> ratios = p.ratios();
            for (int i = 0; i < ratios.size(); i++) {
                b.append(String.format(Locale.ROOT, "| %d | %s | %s | %s |%n", i + 1, number(p.ofTpmC().get(i), "%,.0f"),
                        number(p.toTpmC().get(i), "%,.0f"), number(ratios.get(i), "%.2f ×")));
            }
            b.append(String.format(Locale.ROOT, "%nmedian ratio %s (goal: at least 1)%n%n", number(p.median(), "%.2f ×")));
        }
        return b.toString();
    }

    String json() {
        StringBuilder b = new StringBuilder("{\n  \"pairs\": [");
        for (int i = 0; i < pairs.size(); i++) {
            Pair p = pairs.get(i);
            b.append(i == 0 ? "\n" : ",\n").append("    {\"of\": ").append(ResultJson.string(p.of()))
                    .append(", \"to\": ").append(ResultJson.string(p.to()))
                    .append(", \"ofTpmC\": ").append(array(p.ofTpmC(), "%.1f"))
                    .append(", \"toTpmC\": ").append(array(p.toTpmC(), "%.1f"))
                    .append(", \"ratios\": ").append(array(p.ratios(), "%.4f"))
                    .append(", \"median\": ").append(number(p.median(), "%.4f", "null")).append('}');
        }
        return b.append("\n  ]\n}\n").toString();
    }

    private String name(String key) {
        return names.getOrDefault(key, key);
    }

    private static String array(List<Double> values, String format) {
        List<String> cells = values.stream().map(v -> number(v, format, "null")).toList();
        return "[" + String.join(", ", cells) + "]";
    }

    private static String number(Double v, String format) {
        return number(v, format, "-");
    }

    private static String number(Double v, String format, String none) {
        return v == null ? none : String.format(Locale.ROOT, format, v);
    }
}
