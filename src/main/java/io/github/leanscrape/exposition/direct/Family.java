package io.github.leanscrape.exposition.direct;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Function;

import io.github.leanscrape.exposition.direct.LabelEncoder.SortKey;

/**
 * A metric family written by the direct path: its metadata lines and sample names encoded
 * once, and its series in exposition order.
 * <p>
 * Series are added and removed under the index lock; the order is brought up to date only
 * when a scrape asks for it ({@link #publish}), and published as an immutable array that
 * the scrape then reads without any lock.
 *
 * @author leanscrape
 */
final class Family {

	private static final Series[] NO_SERIES = new Series[0];

	final String name;

	final SeriesKind kind;

	final byte[] textMetadata;

	final byte[] openMetricsMetadata;

	/**
	 * The sample name of counter and gauge lines, and of quantile lines.
	 */
	final byte[] sampleName;

	final byte[] bucketName;

	final byte[] countName;

	final byte[] sumName;

	/**
	 * Sample lines and bytes this family had in the last full scrape, for the cardinality
	 * report. Plain fields: written by scrapes, read by reports, a stale value is fine.
	 */
	int lastLines;

	long lastBytes;

	private Series[] published = NO_SERIES;

	private final List<Series> added = new ArrayList<>();

	private int removedCount;

	private int liveCount;

	Family(String name, SeriesKind kind, String help) {
		this.name = name;
		this.kind = kind;
		String sampleName = (kind == SeriesKind.COUNTER && !name.endsWith("_total")) ? name + "_total" : name;
		String textName = (kind == SeriesKind.COUNTER) ? sampleName : name;
		String openMetricsName = (kind == SeriesKind.COUNTER)
				? sampleName.substring(0, sampleName.length() - "_total".length()) : name;
		this.textMetadata = metadata(textName, kind.type(), escapeTextHelp(help), false);
		this.openMetricsMetadata = metadata(openMetricsName, kind.type(), LabelEncoder.escape(help), true);
		this.sampleName = ascii(sampleName);
		this.bucketName = ascii(name + "_bucket");
		this.countName = ascii(name + "_count");
		this.sumName = ascii(name + "_sum");
	}

	private static byte[] metadata(String name, String type, String escapedHelp, boolean openMetrics) {
		StringBuilder text = new StringBuilder();
		String typeLine = "# TYPE " + name + " " + type + "\n";
		if (openMetrics) {
			text.append(typeLine);
		}
		if (!escapedHelp.isEmpty()) {
			text.append("# HELP ").append(name).append(' ').append(escapedHelp).append('\n');
		}
		if (!openMetrics) {
			text.append(typeLine);
		}
		return text.toString().getBytes(StandardCharsets.UTF_8);
	}

	private static String escapeTextHelp(String help) {
		// Text 0.0.4 escapes backslash and newline in HELP, not double quotes.
		return help.replace("\\", "\\\\").replace("\n", "\\n");
	}

	private static byte[] ascii(String name) {
		return name.getBytes(StandardCharsets.US_ASCII);
	}

	void add(Series series) {
		this.added.add(series);
		this.liveCount++;
	}

	void remove(Series series) {
		series.removed = true;
		this.removedCount++;
		this.liveCount--;
	}

	boolean isEmpty() {
		return this.liveCount == 0;
	}

	/**
	 * Return the series in exposition order, bringing the order up to date first if series
	 * were added or removed. Called under the index lock.
	 * @param sortKeys derives a series' sort key from its meter, for reordering
	 * @return an array that is never modified afterwards
	 */
	Series[] publish(Function<Series, SortKey> sortKeys) {
		if (this.added.isEmpty() && this.removedCount == 0) {
			return this.published;
		}
		List<Series> live = new ArrayList<>(this.liveCount);
		for (Series series : this.published) {
			if (!series.removed) {
				live.add(series);
			}
		}
		for (Series series : this.added) {
			if (!series.removed) {
				live.add(series);
			}
		}
		this.added.clear();
		this.removedCount = 0;
		// Sort keys live only for the length of this sort: keeping them per series would
		// cost more memory than the series' whole text line.
		SortKey[] keys = new SortKey[live.size()];
		Integer[] order = new Integer[live.size()];
		for (int i = 0; i < keys.length; i++) {
			keys[i] = sortKeys.apply(live.get(i));
			order[i] = i;
		}
		Arrays.sort(order, (a, b) -> keys[a].compareTo(keys[b]));
		Series[] sorted = new Series[keys.length];
		for (int i = 0; i < sorted.length; i++) {
			sorted[i] = live.get(order[i]);
		}
		this.published = sorted;
		return sorted;
	}

}
