package io.github.leanscrape.docs;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * How a published figure is written ({@link PublishedFigures}): times, bytes, sizes and
 * ratios as the tables show them, the rows and headers shared by several tables, and the
 * line under a table that names its raw result.
 *
 * @author leanscrape
 */
final class FigureText {

	private FigureText() {
	}

	static double sent(String sent, String server, String endpoint, String encoding, String count) {
		String trial = "server=" + server + " endpoint=" + endpoint + " encoding=" + encoding + " series=" + count;
		List<Double> byForks = new ArrayList<>();
		Matcher line = Pattern.compile(Pattern.quote(trial) + " bytes=([0-9]+)").matcher(sent);
		while (line.find()) {
			byForks.add(Double.parseDouble(line.group(1)));
		}
		if (byForks.isEmpty()) {
			throw new IllegalStateException("No bytes sent recorded for " + trial);
		}
		return JmhResults.median(byForks);
	}

	static double compressedSize(String sizes, String codec, String format) {
		return sizeIn(sizes, "codec=" + Pattern.quote(codec) + " format=" + format + " series=100000 bytes=([0-9]+)");
	}

	static double sizeIn(String sizes, String pattern) {
		Matcher matcher = Pattern.compile(pattern).matcher(sizes);
		if (!matcher.find()) {
			throw new IllegalStateException("No size printed for " + pattern);
		}
		return Double.parseDouble(matcher.group(1));
	}

	static String timesHeader(String first) {
		return "| " + first + " | Format | Spring Boot: ms, median (forks) | leanscrape: ms, median (forks)"
				+ " | Spring Boot: bytes | leanscrape: bytes | bytes ratio | time ratio |\n"
				+ "|---|---|---:|---:|---:|---:|---:|---:|\n";
	}

	static String timesRow(String first, String format, JmhResults.Forks boot, JmhResults.Forks leanscrape) {
		return String.format(Locale.ROOT, "| %s | %s | %s | %s | %s | %s | %s | %s |\n", first, formatLabel(format),
				times(boot), times(leanscrape), bytes(boot.medianBytes()), bytes(leanscrape.medianBytes()),
				percent(leanscrape.medianBytes() / boot.medianBytes()),
				percent(leanscrape.medianTime() / boot.medianTime()));
	}

	/**
	 * The line under a table that names its raw result.
	 * @param results the raw result
	 * @return the line
	 */
	static String raw(JmhResults results) {
		int least = results.forkCount();
		int most = results.maxForkCount();
		String forks = (least == most) ? least + ((least == 1) ? " fork" : " forks") : least + " to " + most + " forks";
		if (results.run().containsKey("trials")) {
			// InterleavedTrials: every result's fork i ran in trial i.
			forks = least + " trials in turn, a fork of every result in each";
		}
		return String.format(Locale.ROOT, "Raw: `docs/jmh/%s` (%s).", results.file().getFileName(), forks);
	}

	static String raw(String file) {
		return "Raw: `" + file + "`.";
	}

	static Map<String, String> series(String count, String format) {
		return Map.of("seriesCount", count, "format", format);
	}

	static Map<String, String> http(String count, String server, String encoding, String endpoint) {
		return Map.of("seriesCount", count, "server", server, "encoding", encoding, "endpoint", endpoint);
	}

	static String formatLabel(String format) {
		return switch (format) {
			case "text" -> "text 0.0.4";
			case "openmetrics" -> "OpenMetrics";
			default -> format;
		};
	}

	static String number(String count) {
		return String.format(Locale.ROOT, "%,d", Long.parseLong(count));
	}

	/**
	 * The ratio of two results of a run in trials ({@code InterleavedTrials}), where fork
	 * {@code i} of each was timed a moment apart: the median of the trials' ratios and
	 * their range. Results of forks not paired so give the ratio of their medians.
	 * @param results the run the two results are of
	 * @param after the forks of the result on top of the ratio
	 * @param before the forks of the result below it
	 * @return the ratio to two decimals, with the range of the trials' ratios in brackets
	 * where they are paired
	 */
	static String pairedRatio(JmhResults results, JmhResults.Forks after, JmhResults.Forks before) {
		List<Double> afterTimes = after.times();
		List<Double> beforeTimes = before.times();
		if (!results.run().containsKey("trials") || afterTimes.size() != beforeTimes.size()) {
			return String.format(Locale.ROOT, "%.2f", after.medianTime() / before.medianTime());
		}
		List<Double> ratios = new ArrayList<>();
		for (int i = 0; i < afterTimes.size(); i++) {
			ratios.add(afterTimes.get(i) / beforeTimes.get(i));
		}
		return String.format(Locale.ROOT, "%.2f (%.2f–%.2f)", JmhResults.median(ratios), Collections.min(ratios),
				Collections.max(ratios));
	}

	static String times(JmhResults.Forks forks) {
		return millis(forks.medianTime()) + " (" + millis(forks.fastestFork()) + "–" + millis(forks.slowestFork())
				+ ")";
	}

	static String millis(double millis) {
		if (Math.abs(millis) >= 10) {
			return String.format(Locale.ROOT, "%.1f", millis);
		}
		return String.format(Locale.ROOT, (Math.abs(millis) >= 1) ? "%.2f" : "%.3f", millis);
	}

	static String bytes(double bytes) {
		return String.format(Locale.ROOT, "%,d", Math.round(bytes));
	}

	/**
	 * A size in B, KB or MB (powers of ten), to three figures.
	 * @param bytes the size in bytes
	 * @return the size with its unit
	 */
	static String size(double bytes) {
		if (bytes >= 1e6) {
			return String.format(Locale.ROOT, "%.3g MB", bytes / 1e6);
		}
		return (bytes >= 1e3) ? String.format(Locale.ROOT, "%.3g KB", bytes / 1e3)
				: String.format(Locale.ROOT, "%.0f B", bytes);
	}

	static String percent(double ratio) {
		double percent = 100 * ratio;
		return String.format(Locale.ROOT, (percent < 1) ? "%.2f%%" : "%.1f%%", percent);
	}

	static double sentPerScrape(JmhResults results, String benchmark, Map<String, String> params) {
		return results.secondaryScore(benchmark, params, "bytesSent")
				/ results.secondaryScore(benchmark, params, "scrapes");
	}

}
