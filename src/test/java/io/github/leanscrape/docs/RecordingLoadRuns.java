package io.github.leanscrape.docs;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.jspecify.annotations.Nullable;

/**
 * The raw outputs of {@code RecordingLoad} (end-to-end recording, five configurations
 * side by side, several launches per run) and what docs/recording.md makes of them: for
 * each configuration, how much of what instrumentation costs it gives back, launch by
 * launch, as a median over every launch of every run with a confidence interval.
 * <p>
 * The interval is the distribution-free one for a median: between the order statistics
 * whose ranks a binomial distribution with p = 1/2 puts at least 95% between, so it
 * assumes nothing about how launches scatter.
 *
 * @author leanscrape
 */
final class RecordingLoadRuns {

	/**
	 * The configurations' names in the table: {@code leanscrape} was the starter's
	 * default, through Micrometer's observation, until requests were recorded without one
	 * by default ({@code direct}).
	 */
	private static final Map<String, String> LABELS = Map.of("handler", "handler", "leanscrape",
			"observed (`direct-server-requests=false`, as with a tracer)", "direct", "**direct (the default)**");

	private static final Pattern LAUNCH = Pattern.compile("^launch \\d+$");

	private static final Pattern COST = Pattern
		.compile("^what instrumentation costs: (-?\\d+) req/s, (-?\\d+) B and (-?[0-9.]+) us");

	private static final Pattern RECOVERED = Pattern
		.compile("^recovered by (\\w+): +(-?\\d+) req/s \\( *-?\\d+%\\), +(-?\\d+) B \\( *-?\\d+%\\), +(-?[0-9.]+) us");

	private final List<Path> files;

	private final List<Launch> launches;

	private RecordingLoadRuns(List<Path> files, List<Launch> launches) {
		this.files = files;
		this.launches = launches;
	}

	static RecordingLoadRuns read(List<Path> files) throws IOException {
		List<Launch> launches = new ArrayList<>();
		for (Path file : files) {
			Launch launch = null;
			for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
				if (line.startsWith("all ")) {
					// The totals over the run's launches follow: launches are counted
					// alone.
					break;
				}
				Matcher cost = COST.matcher(line);
				Matcher recovered = RECOVERED.matcher(line);
				if (LAUNCH.matcher(line).matches()) {
					launch = new Launch();
					launches.add(launch);
				}
				else if (launch != null && cost.find()) {
					launch.cost = new double[] { Double.parseDouble(cost.group(1)), Double.parseDouble(cost.group(2)),
							Double.parseDouble(cost.group(3)) };
				}
				else if (launch != null && recovered.find()) {
					launch.recovered.put(recovered.group(1), new double[] { Double.parseDouble(recovered.group(2)),
							Double.parseDouble(recovered.group(3)), Double.parseDouble(recovered.group(4)) });
				}
			}
		}
		return new RecordingLoadRuns(files, launches);
	}

	/**
	 * Return the table: per configuration, the share of instrumentation's cost in
	 * throughput, bytes and CPU that it gives back, median over the launches with the 95%
	 * interval of the median, and the range of single launches.
	 * @return the markdown table, with the raw files and their runs under it
	 */
	String table() throws IOException {
		StringBuilder md = new StringBuilder();
		md.append("| configuration | launches | req/s given back: median (95% interval) | single launches")
			.append(" | bytes given back: median (95% interval) | CPU given back: median (95% interval) |\n");
		md.append("|---|---:|---:|---:|---:|---:|\n");
		for (String configuration : List.of("handler", "leanscrape", "direct")) {
			List<Double> throughput = new ArrayList<>();
			List<Double> bytes = new ArrayList<>();
			List<Double> cpu = new ArrayList<>();
			for (Launch launch : this.launches) {
				double[] recovered = launch.recovered.get(configuration);
				if (launch.cost == null || recovered == null) {
					throw new IllegalStateException("A launch without what instrumentation costs or what "
							+ configuration + " gives back: " + this.files);
				}
				throughput.add(100 * recovered[0] / launch.cost[0]);
				bytes.add(100 * recovered[1] / launch.cost[1]);
				cpu.add(100 * recovered[2] / launch.cost[2]);
			}
			md.append(String.format(Locale.ROOT, "| %s | %d | %s | %.0f%% to %.0f%% | %s | %s |\n",
					LABELS.get(configuration), throughput.size(), interval(throughput), Collections.min(throughput),
					Collections.max(throughput), interval(bytes), interval(cpu)));
		}
		md.append('\n');
		String separator = "Raw: ";
		for (Path file : this.files) {
			md.append(separator).append("`docs/load/").append(file.getFileName()).append('`');
			separator = ", ";
		}
		md.append(".\n");
		return md.toString();
	}

	/**
	 * The median and its distribution-free 95% interval.
	 */
	private static String interval(List<Double> values) {
		List<Double> sorted = new ArrayList<>(values);
		Collections.sort(sorted);
		int n = sorted.size();
		int lower = lowerRank(n);
		return String.format(Locale.ROOT, "%.0f%% (%.0f–%.0f%%)", JmhResults.median(sorted), sorted.get(lower - 1),
				sorted.get(n - lower));
	}

	/**
	 * The largest rank k (1-based) such that the k-th and (n+1-k)-th of n values hold the
	 * median with probability at least 95%: P(k <= B <= n-k) >= 0.95 for B ~ Bin(n, 1/2).
	 */
	static int lowerRank(int n) {
		if (n < 6) {
			throw new IllegalArgumentException("Fewer than 6 values have no 95% interval of their median");
		}
		int best = 1;
		for (int k = 1; k <= n / 2; k++) {
			double inside = 0;
			for (int i = k; i <= n - k; i++) {
				inside += binomial(n, i) / Math.pow(2, n);
			}
			if (inside >= 0.95) {
				best = k;
			}
		}
		return best;
	}

	private static double binomial(int n, int k) {
		double value = 1;
		for (int i = 1; i <= k; i++) {
			value = value * (n - k + i) / i;
		}
		return value;
	}

	private static final class Launch {

		private double @Nullable [] cost;

		private final Map<String, double[]> recovered = new LinkedHashMap<>();

	}

}
