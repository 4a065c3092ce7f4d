package io.github.leanscrape.benchmark;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.json.JsonMapper;

/**
 * Reads the JSON results of a JMH run of the scrape benchmarks ({@code -rf json}), prints
 * them as a markdown table, and fails when leanscrape allocates more than a given share
 * of what Spring Boot's endpoint allocates in the same run.
 * <p>
 * A check compares {@code gc.alloc.rate.norm} (bytes per operation, from
 * {@code -prof gc}) of the {@code leanscrape} benchmark with that of the {@code boot}
 * benchmark, at one series count and one format. A check whose results are missing fails
 * too: a gate that passes on nothing proves nothing. <pre>
 * BenchmarkGate [--results FILE] [--series N] [--ratio R|off] [--openmetrics-ratio R|off]
 *               [--protobuf-ratio R|off] [--check FORMAT/CONFIGURATION=R|off]
 *               [--max-bytes-per-series B] [--budgets FILE] [--plant ROW]
 *               [--plant-no-reuse ROW] [--table-out FILE] [--table-only]
 * </pre>
 * <ul>
 * <li>{@code --results}: the JMH result file, {@code target/jmh-result.json} by
 * default;</li>
 * <li>{@code --series}: the series count the checks look at, 10000 by default;</li>
 * <li>{@code --ratio}: the most leanscrape may allocate for text, as a share of Spring
 * Boot's, 1.0 by default; {@code off}: not compared with Spring Boot's (no {@code boot}
 * result needed), only with the per-series budget;</li>
 * <li>{@code --openmetrics-ratio}: the same for OpenMetrics, {@code --ratio} by
 * default;</li>
 * <li>{@code --protobuf-ratio}: the same for protobuf, not checked by default;</li>
 * <li>{@code --check}: the same for a format in a configuration of
 * {@code ScrapeBenchmark}'s other than {@code plain}, such as
 * {@code openmetrics/tracing=0.01}; repeatable;</li>
 * <li>{@code --max-bytes-per-series}: also fail when the starter allocates more than this
 * many bytes per series per scrape in any checked format, a budget that does not move
 * when Spring Boot gets cheaper;</li>
 * <li>{@code --budgets}: also check every row of a budgets file
 * ({@link AllocationBudgets}): the bytes per operation of each gated benchmark, and that
 * each budget fails a doubling, and its floors: what the gated rows of
 * {@code ChangingScrapeBenchmark} reuse per scrape;</li>
 * <li>{@code --plant}: take a budget row's bytes as twice what they were, to show the
 * gate failing on a regression;</li>
 * <li>{@code --plant-no-reuse}: take a floor row's counters as 0, to show the gate
 * failing when reuse stops;</li>
 * <li>{@code --table-out}: also write the table to a file;</li>
 * <li>{@code --table-only}: print the table of every result and check nothing (for the
 * README, from a full run).</li>
 * </ul>
 * Exit status: 0 when every check passes, 1 when one fails, 2 when results are missing or
 * the arguments are wrong.
 *
 * @author leanscrape
 */
public final class BenchmarkGate {

	private static final JsonMapper JSON = new JsonMapper();

	private static final String ALLOCATION = "gc.alloc.rate.norm";

	private static final String BASELINE = "boot";

	private static final String CANDIDATE = "leanscrape";

	private static final List<String> FORMATS = List.of("text", "openmetrics", "protobuf");

	private static final List<String> BENCHMARKS = List.of("boot", "leanscrape", "collect", "bootWrite",
			"leanscrapeWrite", "bootHandOff", "leanscrapeHandOff");

	private BenchmarkGate() {
	}

	/**
	 * Run the gate and exit with its status.
	 * @param args the arguments, see the class description
	 */
	public static void main(String[] args) {
		System.exit(run(args, System.out));
	}

	/**
	 * Run the gate.
	 * @param args the arguments, see the class description
	 * @param out where to print the table and the verdicts
	 * @return the exit status
	 */
	static int run(String[] args, PrintStream out) {
		Options options;
		try {
			options = Options.parse(args);
		}
		catch (IllegalArgumentException ex) {
			out.println("Benchmark gate: " + ex.getMessage());
			return 2;
		}
		List<Result> results;
		try {
			results = Result.read(options.results);
		}
		catch (IOException | IllegalArgumentException ex) {
			out.println("Benchmark gate: cannot read " + options.results + ": " + ex.getMessage());
			return 2;
		}
		String table = table(results);
		out.println();
		out.print(table);
		out.println();
		if (options.tableOut != null) {
			try {
				Files.writeString(options.tableOut, table, StandardCharsets.UTF_8);
			}
			catch (IOException ex) {
				out.println("Benchmark gate: cannot write " + options.tableOut + ": " + ex.getMessage());
				return 2;
			}
		}
		if (options.tableOnly) {
			return 0;
		}
		int status = 0;
		for (Map.Entry<String, Double> check : options.ratios.entrySet()) {
			if (!Double.isNaN(check.getValue())) {
				status = Math.max(status, check(results, options.series, check.getKey(), check.getValue(), out));
			}
			if (options.maxBytesPerSeries > 0) {
				status = Math.max(status,
						checkBudget(results, options.series, check.getKey(), options.maxBytesPerSeries, out));
			}
		}
		if (options.budgets != null) {
			try {
				Object entries = parseJson(Files.readString(options.results, StandardCharsets.UTF_8));
				AllocationBudgets budgets = AllocationBudgets.read(options.budgets);
				out.println();
				status = Math.max(status, budgets.check((entries instanceof List<?> list) ? list : List.of(),
						options.planted, options.plantedNoReuse, out));
			}
			catch (IOException | IllegalArgumentException ex) {
				out.println("Benchmark gate: cannot read " + options.budgets + ": " + ex.getMessage());
				return 2;
			}
		}
		out.println((status == 0) ? "Benchmark gate passed." : "Benchmark gate FAILED.");
		return status;
	}

	private static int check(List<Result> results, String series, String format, double ratio, PrintStream out) {
		Result baseline = find(results, BASELINE, series, format);
		Result candidate = find(results, CANDIDATE, series, format);
		String where = format + " at " + series + " series";
		if (baseline == null || candidate == null) {
			out.printf(Locale.ROOT,
					"MISSING %s: no result of %s; run ScrapeBenchmark with -p seriesCount=%s " + "-p format=%s%n",
					where, (baseline != null) ? CANDIDATE : BASELINE, series, format);
			return 2;
		}
		if (Double.isNaN(baseline.bytesPerOp) || Double.isNaN(candidate.bytesPerOp)) {
			out.printf(Locale.ROOT, "MISSING %s: no %s; run JMH with -prof gc%n", where, ALLOCATION);
			return 2;
		}
		double actual = candidate.bytesPerOp / baseline.bytesPerOp;
		boolean passed = candidate.bytesPerOp <= ratio * baseline.bytesPerOp;
		out.printf(Locale.ROOT, "%s %s: %s allocates %,.0f B/op, %.3f of %s's %,.0f B/op (limit %.3f)%n",
				passed ? "PASS" : "FAIL", where, CANDIDATE, candidate.bytesPerOp, actual, BASELINE, baseline.bytesPerOp,
				ratio);
		return passed ? 0 : 1;
	}

	/**
	 * Check the starter's bytes per scrape against a budget per series that does not move
	 * when Spring Boot or Micrometer get cheaper.
	 * @param results the results JMH wrote
	 * @param series the series count of the results to check
	 * @param format the format of the results to check
	 * @param maxBytesPerSeries the budget
	 * @param out where the verdict is printed
	 * @return 0 when within the budget, 1 when over it or without a result
	 */
	private static int checkBudget(List<Result> results, String series, String format, double maxBytesPerSeries,
			PrintStream out) {
		Result candidate = find(results, CANDIDATE, series, format);
		if (candidate == null || Double.isNaN(candidate.bytesPerOp)) {
			out.printf(Locale.ROOT, "MISSING %s at %s series: no %s of %s; run ScrapeBenchmark with -prof gc%n", format,
					series, ALLOCATION, CANDIDATE);
			return 2;
		}
		double perSeries = candidate.bytesPerOp / parseSeries(series);
		boolean passed = perSeries <= maxBytesPerSeries;
		out.printf(Locale.ROOT, "%s %s at %s series: leanscrape allocates %.2f B per series per scrape (budget %.2f)%n",
				passed ? "PASS" : "FAIL", format, series, perSeries, maxBytesPerSeries);
		return passed ? 0 : 1;
	}

	private static @Nullable Result find(List<Result> results, String benchmark, String series, String format) {
		for (Result result : results) {
			if (result.benchmark.equals(benchmark) && result.series.equals(series) && result.format.equals(format)) {
				return result;
			}
		}
		return null;
	}

	/**
	 * Return a markdown table of the results: one row per benchmark, series count and
	 * format, with the allocation as a share of Spring Boot's endpoint's in the same run.
	 * @param results the results
	 * @return the table
	 */
	static String table(List<Result> results) {
		List<Result> sorted = new ArrayList<>(results);
		sorted.sort(Comparator.comparingLong((Result result) -> parseSeries(result.series))
			.thenComparingInt((result) -> rank(FORMATS, result.format))
			.thenComparing((result) -> result.format)
			.thenComparingInt((result) -> rank(BENCHMARKS, result.benchmark))
			.thenComparing((result) -> result.benchmark));
		StringBuilder table = new StringBuilder();
		table.append("| Series | Format | Benchmark | ms/op | B/op | B/op ratio to boot |\n");
		table.append("|-------:|--------|-----------|------:|-----:|-------------------:|\n");
		for (Result result : sorted) {
			Result baseline = find(results, BASELINE, result.series, result.format);
			String ratio = (baseline != null && !Double.isNaN(result.bytesPerOp) && baseline.bytesPerOp > 0)
					? String.format(Locale.ROOT, "%.3f", result.bytesPerOp / baseline.bytesPerOp) : "-";
			String bytes = Double.isNaN(result.bytesPerOp) ? "-"
					: String.format(Locale.ROOT, "%,.0f", result.bytesPerOp);
			table.append(String.format(Locale.ROOT, "| %s | %s | %s | %s | %s | %s |%n",
					String.format(Locale.ROOT, "%,d", parseSeries(result.series)), result.format, result.benchmark,
					millis(result.millisPerOp), bytes, ratio));
		}
		return table.toString();
	}

	private static String millis(double value) {
		if (Double.isNaN(value)) {
			return "-";
		}
		return String.format(Locale.ROOT, (value < 10) ? "%.3f" : "%,.1f", value);
	}

	private static long parseSeries(String series) {
		try {
			return Long.parseLong(series);
		}
		catch (NumberFormatException ex) {
			return Long.MAX_VALUE;
		}
	}

	private static int rank(List<String> order, String value) {
		int index = order.indexOf(value);
		return (index >= 0) ? index : order.size();
	}

	/**
	 * Read a JMH result file's JSON: objects become maps, arrays lists, numbers
	 * {@link Number}s (Jackson, which Spring Boot manages).
	 * @param text the JSON
	 * @return the value
	 * @throws IllegalArgumentException when the text is not JSON
	 */
	static @Nullable Object parseJson(String text) {
		try {
			return JSON.readValue(text, Object.class);
		}
		catch (JacksonException ex) {
			throw new IllegalArgumentException("not JSON: " + ex.getOriginalMessage(), ex);
		}
	}

	/**
	 * The arguments of the gate.
	 */
	private static final class Options {

		Path results = Path.of("target", "jmh-result.json");

		String series = "10000";

		/**
		 * The ratio of each checked format, in the order of the checks.
		 */
		final Map<String, Double> ratios = new LinkedHashMap<>();

		@Nullable Path tableOut;

		/**
		 * The budgets file, or {@code null} for no budgets.
		 */
		@Nullable Path budgets;

		/**
		 * A budget row whose bytes are doubled before the check, or {@code null}.
		 */
		@Nullable String planted;

		/**
		 * A floor row whose counters are taken as 0 before the check, or {@code null}.
		 */
		@Nullable String plantedNoReuse;

		boolean tableOnly;

		/**
		 * The most bytes per series per scrape the starter may allocate, or {@code 0} for
		 * no such check.
		 */
		double maxBytesPerSeries;

		static Options parse(String[] args) {
			Options options = new Options();
			double textRatio = 1.0;
			String openMetricsRatio = null;
			String protobufRatio = null;
			Map<String, Double> extra = new LinkedHashMap<>();
			for (int i = 0; i < args.length; i++) {
				String arg = args[i];
				switch (arg) {
					case "--results" -> {
						options.results = Path.of(value(args, ++i, arg));
					}
					case "--series" -> {
						options.series = String.valueOf(Long.parseLong(value(args, ++i, arg)));
					}
					case "--ratio" -> {
						textRatio = ratio(value(args, ++i, arg), arg);
					}
					case "--openmetrics-ratio" -> {
						openMetricsRatio = value(args, ++i, arg);
					}
					case "--protobuf-ratio" -> {
						protobufRatio = value(args, ++i, arg);
					}
					case "--table-out" -> {
						options.tableOut = Path.of(value(args, ++i, arg));
					}
					case "--table-only" -> {
						options.tableOnly = true;
					}
					case "--budgets" -> {
						options.budgets = Path.of(value(args, ++i, arg));
					}
					case "--plant" -> {
						options.planted = value(args, ++i, arg);
					}
					case "--plant-no-reuse" -> {
						options.plantedNoReuse = value(args, ++i, arg);
					}
					case "--check" -> {
						String check = value(args, ++i, arg);
						int equals = check.indexOf('=');
						if (equals < 1) {
							throw new IllegalArgumentException(
									"--check takes FORMAT[/CONFIGURATION]=RATIO, not " + check);
						}
						extra.put(check.substring(0, equals), ratio(check.substring(equals + 1), arg));
					}
					case "--max-bytes-per-series" -> {
						options.maxBytesPerSeries = Double.parseDouble(value(args, ++i, arg));
					}
					default -> throw new IllegalArgumentException("unknown argument '" + arg + "'; expected "
							+ "[--results FILE] [--series N] [--ratio R|off] [--openmetrics-ratio R|off] "
							+ "[--protobuf-ratio R|off] [--check FORMAT/CONFIGURATION=R|off] "
							+ "[--max-bytes-per-series B] [--budgets FILE] [--plant ROW] [--plant-no-reuse ROW] "
							+ "[--table-out FILE] [--table-only]");
				}
			}
			options.ratios.put("text", textRatio);
			options.ratios.put("openmetrics",
					(openMetricsRatio != null) ? ratio(openMetricsRatio, "--openmetrics-ratio") : textRatio);
			if (protobufRatio != null) {
				options.ratios.put("protobuf", ratio(protobufRatio, "--protobuf-ratio"));
			}
			options.ratios.putAll(extra);
			return options;
		}

		private static String value(String[] args, int index, String name) {
			if (index >= args.length) {
				throw new IllegalArgumentException(name + " needs a value");
			}
			return args[index];
		}

		/**
		 * Parse a ratio to Spring Boot's bytes.
		 * @param value the ratio, or {@code off}
		 * @param name the option
		 * @return the ratio, or {@code NaN} for {@code off}: the format is checked
		 * against the per-series budget only
		 */
		private static double ratio(String value, String name) {
			if ("off".equals(value)) {
				return Double.NaN;
			}
			double ratio;
			try {
				ratio = Double.parseDouble(value);
			}
			catch (NumberFormatException ex) {
				throw new IllegalArgumentException(name + " must be a number or 'off', not '" + value + "'");
			}
			if (!(ratio > 0)) {
				throw new IllegalArgumentException(name + " must be positive, not " + value);
			}
			return ratio;
		}

	}

	/**
	 * One benchmark result: the benchmark method, its parameters, its time per operation
	 * in milliseconds and its bytes allocated per operation ({@code NaN} when not
	 * measured).
	 *
	 * @param benchmark the simple name of the benchmark method
	 * @param series the series count parameter
	 * @param format the format parameter
	 * @param millisPerOp the average time per operation in milliseconds
	 * @param bytesPerOp the bytes allocated per operation
	 */
	record Result(String benchmark, String series, String format, double millisPerOp, double bytesPerOp) {

		/**
		 * Read the results of the scrape benchmarks from a JMH JSON result file; results
		 * without a series count and a format are left out.
		 * @param file the result file
		 * @return the results
		 * @throws IOException when the file cannot be read
		 */
		static List<Result> read(Path file) throws IOException {
			Object root = parseJson(Files.readString(file, StandardCharsets.UTF_8));
			if (!(root instanceof List<?> entries)) {
				throw new IllegalArgumentException("not a JMH JSON result: no top-level array");
			}
			List<Result> results = new ArrayList<>();
			for (Object entry : entries) {
				Map<?, ?> result = map(entry);
				Map<?, ?> params = map(result.get("params"));
				Object series = params.get("seriesCount");
				Object format = params.get("format");
				if (series == null || format == null) {
					continue;
				}
				Object configuration = params.get("configuration");
				if (configuration != null && !"plain".equals(configuration.toString())) {
					// A configuration other than the meters alone is checked as a format
					// of its own: openmetrics/tracing, text/foreign.
					format = format + "/" + configuration;
				}
				String benchmark = String.valueOf(result.get("benchmark"));
				Map<?, ?> primary = map(result.get("primaryMetric"));
				double millis = toMillis(number(primary.get("score")), String.valueOf(primary.get("scoreUnit")));
				Map<?, ?> secondary = map(result.get("secondaryMetrics"));
				double bytes = secondary.containsKey(ALLOCATION) ? number(map(secondary.get(ALLOCATION)).get("score"))
						: Double.NaN;
				results.add(new Result(benchmark.substring(benchmark.lastIndexOf('.') + 1), series.toString(),
						format.toString(), millis, bytes));
			}
			return results;
		}

		private static Map<?, ?> map(@Nullable Object value) {
			return (value instanceof Map<?, ?> map) ? map : Map.of();
		}

		private static double number(@Nullable Object value) {
			if (value instanceof Number number) {
				return number.doubleValue();
			}
			// JMH writes scores that are not numbers as strings: "NaN".
			return Double.NaN;
		}

		private static double toMillis(double score, String unit) {
			return switch (unit) {
				case "ns/op" -> score / 1_000_000;
				case "us/op" -> score / 1_000;
				case "ms/op" -> score;
				case "s/op" -> score * 1_000;
				default -> Double.NaN;
			};
		}

	}

}
