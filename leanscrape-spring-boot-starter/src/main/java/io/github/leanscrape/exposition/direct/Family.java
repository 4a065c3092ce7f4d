package io.github.leanscrape.exposition.direct;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Function;

import io.github.leanscrape.exposition.direct.LabelEncoder.SortKey;
import org.jspecify.annotations.Nullable;

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

	private static final byte[] UNUSED = new byte[0];

	/**
	 * How many more removed series than live ones a family may hold before it drops them
	 * without waiting for a scrape.
	 */
	private static final int COMPACTION_SLACK = 64;

	final String name;

	final SeriesKind kind;

	/**
	 * The Prometheus name of the meters that feed this family, under which the registry's
	 * collector is found.
	 */
	final String collectorName;

	final byte[] textMetadata;

	final byte[] openMetricsMetadata;

	/**
	 * The fields of the protobuf {@code MetricFamily} before its metrics: name, help and
	 * type.
	 */
	final byte[] protobufMetadata;

	/**
	 * The protobuf size of this family for one array of its series, when the size of its
	 * metrics does not depend on their values; {@code null} until a protobuf scrape works
	 * it out.
	 */
	volatile @Nullable ProtobufSize protobufSize;

	/**
	 * The array of series whose created timestamps were all found known, so that a scrape
	 * of the same array need not look again: arrays are never modified once published,
	 * and a known timestamp never changes. Counters, summaries and histograms only.
	 */
	volatile Series @Nullable [] createdKnown;

	/**
	 * The sample name of counter and gauge lines, and of quantile lines.
	 */
	final byte[] sampleName;

	/**
	 * The sample name of bucket lines; empty unless this is a histogram.
	 */
	final byte[] bucketName;

	/**
	 * The sample name of count lines ({@code _gcount} for a gauge histogram); empty
	 * unless this is a summary or a histogram.
	 */
	final byte[] countName;

	/**
	 * The sample name of sum lines ({@code _gsum} for a gauge histogram); empty unless
	 * this is a summary or a histogram.
	 */
	final byte[] sumName;

	/**
	 * The text 0.0.4 metadata of the gauge family of a gauge histogram's {@code _gcount}
	 * lines; empty for other kinds.
	 */
	final byte[] gaugeCountMetadata;

	/**
	 * The text 0.0.4 metadata of the gauge family of a gauge histogram's {@code _gsum}
	 * lines; empty for other kinds.
	 */
	final byte[] gaugeSumMetadata;

	/**
	 * The sample name of {@code _created} lines; empty unless this kind has created
	 * timestamps.
	 */
	final byte[] createdName;

	/**
	 * The text 0.0.4 metadata of the gauge family of the {@code _created} lines; empty
	 * unless this kind has created timestamps.
	 */
	final byte[] createdMetadata;

	/**
	 * Sample lines and bytes this family had in the last full scrape, for the cardinality
	 * report. Plain fields: written by scrapes, read by reports, a stale value is fine.
	 */
	int lastLines;

	long lastBytes;

	private Series[] published = NO_SERIES;

	private List<Series> added = new ArrayList<>();

	private int removedCount;

	private int liveCount;

	Family(String name, SeriesKind kind, String help, String collectorName) {
		this.name = name;
		this.collectorName = collectorName;
		this.kind = kind;
		String sampleName = (kind == SeriesKind.COUNTER && !name.endsWith("_total")) ? name + "_total" : name;
		if (kind == SeriesKind.INFO) {
			// client_java writes an info metric's samples, and its text metadata, with
			// _info after the family's name.
			sampleName = name + "_info";
		}
		String textName = (kind == SeriesKind.COUNTER || kind == SeriesKind.INFO) ? sampleName : name;
		String openMetricsName = (kind == SeriesKind.COUNTER)
				? sampleName.substring(0, sampleName.length() - "_total".length()) : name;
		String openMetricsType = switch (kind) {
			case INFO -> "info";
			case GAUGE_HISTOGRAM -> "gaugehistogram";
			default -> kind.type();
		};
		this.textMetadata = metadata(textName, kind.type(), escapeTextHelp(help), false);
		this.openMetricsMetadata = metadata(openMetricsName, openMetricsType, LabelEncoder.escape(help), true);
		String protobufName = (kind == SeriesKind.COUNTER || kind == SeriesKind.INFO) ? sampleName : name;
		this.protobufMetadata = ProtobufWire.familyMetadata(protobufName, help, kind.protobufType());
		this.sampleName = ascii(sampleName);
		// Only the names this kind writes are kept: most families are counters and
		// gauges.
		boolean gaugeHistogram = kind == SeriesKind.GAUGE_HISTOGRAM;
		boolean distribution = kind == SeriesKind.SUMMARY || kind == SeriesKind.HISTOGRAM || gaugeHistogram;
		this.bucketName = (kind == SeriesKind.HISTOGRAM || gaugeHistogram) ? ascii(name + "_bucket") : UNUSED;
		this.countName = distribution ? ascii(name + (gaugeHistogram ? "_gcount" : "_count")) : UNUSED;
		this.sumName = distribution ? ascii(name + (gaugeHistogram ? "_gsum" : "_sum")) : UNUSED;
		String textHelp = escapeTextHelp(help);
		this.gaugeCountMetadata = gaugeHistogram ? metadata(name + "_gcount", "gauge", textHelp, false) : UNUSED;
		this.gaugeSumMetadata = gaugeHistogram ? metadata(name + "_gsum", "gauge", textHelp, false) : UNUSED;
		// client_java names a counter's _created samples after the counter without
		// _total, and the others' after the family.
		String createdName = openMetricsName + "_created";
		this.createdName = kind.hasCreated() ? ascii(createdName) : UNUSED;
		this.createdMetadata = kind.hasCreated() ? metadata(createdName, "gauge", textHelp, false) : UNUSED;
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
		if (this.removedCount > this.liveCount + COMPACTION_SLACK) {
			// Removed series are otherwise dropped only when a scrape publishes the
			// family: without scrapes, meters that come and go would pile up here for
			// good. Compacting once they outnumber the live ones (by more than the slack)
			// bounds what they hold, at a constant cost per removal over time.
			compact();
		}
	}

	/**
	 * Drop removed series from the published array and the added ones, keeping their
	 * order: the published array stays sorted, and one handed to a scrape is not touched.
	 */
	private void compact() {
		int live = 0;
		for (Series series : this.published) {
			if (!series.removed) {
				live++;
			}
		}
		Series[] kept = (live > 0) ? new Series[live] : NO_SERIES;
		int next = 0;
		for (Series series : this.published) {
			if (!series.removed) {
				kept[next++] = series;
			}
		}
		this.published = kept;
		List<Series> added = new ArrayList<>(Math.max(0, this.liveCount - live));
		for (Series series : this.added) {
			if (!series.removed) {
				added.add(series);
			}
		}
		this.added = added;
		this.removedCount = 0;
	}

	boolean isEmpty() {
		return this.liveCount == 0;
	}

	/**
	 * Return the series in exposition order, bringing the order up to date first if
	 * series were added or removed. Called under the index lock.
	 * @param sortKeys derives a series' sort key from its meter, for reordering
	 * @return an array that is never modified afterwards, or {@code null} when two series
	 * have the same labels (client_java refuses such a family, so only the reference path
	 * can answer as Spring Boot's endpoint does)
	 */
	Series @Nullable [] publish(Function<Series, SortKey> sortKeys) {
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
		// A new list rather than clear(): a cleared list would keep its grown array for
		// good.
		this.added = new ArrayList<>();
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
			if (i > 0 && keys[order[i]].compareTo(keys[order[i - 1]]) == 0) {
				// Tag keys that differ only until the naming convention maps them to the
				// same label name ("a.b" and "a_b"): equal labels, and sorted, adjacent.
				return null;
			}
			sorted[i] = live.get(order[i]);
		}
		this.published = sorted;
		return sorted;
	}

	/**
	 * The size of a family's protobuf message for one array of its series, which a new
	 * array (series added or removed) makes stale.
	 *
	 * @param series the array the size is for
	 * @param size the size of the message
	 */
	record ProtobufSize(Series[] series, long size) {

	}

}
