package io.github.leanscrape.load;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads the pauses from a unified GC log written with
 * {@code -Xlog:gc:file=<file>:timemillis}: lines such as
 * {@code [1700000000123ms] GC(7) Pause Young (Normal) (G1 Evacuation Pause) 60M->9M(1024M) 3.456ms}.
 *
 * @author leanscrape
 */
final class GcLog {

	/**
	 * The option that makes a JVM write such a log.
	 * @param file the log
	 * @return the JVM option
	 */
	static String option(Path file) {
		return "-Xlog:gc:file=" + file + ":timemillis";
	}

	private static final Pattern PAUSE = Pattern.compile("^\\[(\\d+)ms\\].* Pause .* ([0-9]+(?:\\.[0-9]+)?)ms$");

	private GcLog() {
	}

	/**
	 * Sum the pauses that ended within a window of wall-clock time.
	 * @param file the log
	 * @param fromMillis start of the window, as {@link System#currentTimeMillis()}
	 * @param untilMillis end of the window
	 * @return the pauses
	 * @throws IOException if the log cannot be read
	 */
	static Pauses pauses(Path file, long fromMillis, long untilMillis) throws IOException {
		int count = 0;
		double total = 0;
		double max = 0;
		for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
			Matcher matcher = PAUSE.matcher(line);
			if (!matcher.matches()) {
				continue;
			}
			long at = Long.parseLong(matcher.group(1));
			if (at < fromMillis || at > untilMillis) {
				continue;
			}
			double millis = Double.parseDouble(matcher.group(2));
			count++;
			total += millis;
			max = Math.max(max, millis);
		}
		return new Pauses(count, total, max);
	}

	/**
	 * GC pauses in a window.
	 *
	 * @param count how many
	 * @param totalMillis their total duration
	 * @param maxMillis the longest
	 */
	record Pauses(int count, double totalMillis, double maxMillis) {

	}

}
