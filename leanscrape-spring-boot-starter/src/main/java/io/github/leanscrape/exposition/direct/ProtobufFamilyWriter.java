package io.github.leanscrape.exposition.direct;

import io.github.leanscrape.exposition.ChunkedOutput;
import io.micrometer.core.instrument.distribution.ValueAtPercentile;
import io.prometheus.metrics.model.snapshots.Exemplar;
import org.jspecify.annotations.Nullable;

/**
 * Writes a direct family as one length-delimited protobuf {@code MetricFamily}, byte for
 * byte as client_java's protobuf writer does. A message's size precedes it: where sizes
 * follow from what never changes (counters without exemplars, gauges, maxima, info
 * metrics), they are summed first and the metrics written straight; otherwise (summaries,
 * histograms, exemplars) the family goes through a buffer of the scrape's. Either way
 * every value is read once.
 *
 * @author leanscrape
 */
final class ProtobufFamilyWriter {

	/** A {@code Gauge}: its value. */
	private static final int GAUGE_SIZE = ProtobufWire.DOUBLE_FIELD;

	/** A {@code Metric.gauge} field. */
	private static final int GAUGE_FIELD = 2 + GAUGE_SIZE;

	/** A {@code Quantile}: two doubles. */
	private static final int QUANTILE_SIZE = 2 * ProtobufWire.DOUBLE_FIELD;

	private ProtobufFamilyWriter() {
	}

	/**
	 * Write one family. A full scrape keeps the family's samples (as the text formats
	 * count them) and bytes for the cardinality report.
	 * @param family the family
	 * @param series its series, in exposition order
	 * @param workspace room reused across the families of the scrape
	 * @param out the output
	 * @param full whether this is a full scrape
	 */
	static void writeFamily(Family family, Series[] series, ScrapeWorkspace workspace, ChunkedOutput out,
			boolean full) {
		long start = out.size();
		ExemplarScrape exemplars = workspace.exemplars;
		int samples = switch (family.kind) {
			case COUNTER ->
				(exemplars != null) ? buffered(family, writeCounters(series, workspace, exemplars), workspace, out)
						: writeCounters(family, series, workspace, out);
			case GAUGE, MAX, INFO -> writeGauges(family, series, workspace, out);
			case SUMMARY -> buffered(family, writeSummaries(series, workspace), workspace, out);
			case HISTOGRAM, GAUGE_HISTOGRAM ->
				buffered(family, writeHistograms(series, workspace, exemplars), workspace, out);
		};
		if (full) {
			family.lastLines = samples;
			family.lastBytes = out.size() - start;
		}
	}

	/**
	 * Write a family whose metrics wait in the workspace's buffer: its size, its
	 * metadata, its metrics. A family left without metrics (summaries with neither count,
	 * sum nor quantiles) is written as client_java writes it: an empty message.
	 * @param family the family
	 * @param samples the samples its metrics hold
	 * @param workspace the workspace holding them
	 * @param out the output
	 * @return the samples
	 */
	private static int buffered(Family family, int samples, ScrapeWorkspace workspace, ChunkedOutput out) {
		ChunkedOutput metrics = workspace.familyBuffer();
		long size = metrics.size();
		if (size == 0) {
			out.writeVarint(0);
			return samples;
		}
		out.writeVarint(family.protobufMetadata.length + size);
		out.write(family.protobufMetadata);
		out.append(metrics);
		return samples;
	}

	private static int counterSize(long created, int exemplarSize) {
		int size = ProtobufWire.DOUBLE_FIELD;
		if (exemplarSize > 0) {
			size += ProtobufWire.messageField(exemplarSize);
		}
		if (created != 0) {
			size += ProtobufWire.messageField(ProtobufWire.timestampSize(created));
		}
		return size;
	}

	/**
	 * Write counters without exemplars: the family's size (known from its series), then
	 * values and labels read a block at a time, as the text writer reads them and for the
	 * same reason.
	 * @param family the family
	 * @param series its series
	 * @param workspace the workspace
	 * @param out the output
	 * @return the samples written
	 */
	private static int writeCounters(Family family, Series[] series, ScrapeWorkspace workspace, ChunkedOutput out) {
		writeHeader(family, series, workspace, out);
		double[] values = workspace.values;
		for (int start = 0; start < series.length; start += values.length) {
			int end = Math.min(series.length, start + values.length);
			for (int i = start; i < end; i++) {
				Series each = series[i];
				values[i - start] = MeterValues.counter(each);
				workspace.touchLabels(each.labels);
			}
			for (int i = start; i < end; i++) {
				double value = values[i - start];
				MeterValues.checkCounter(value);
				writeCounter(series[i], value, null, null, 0, workspace, out);
			}
		}
		return series.length;
	}

	/**
	 * Write counters with their exemplars into the workspace's family buffer, values and
	 * exemplars read a block at a time.
	 * @param series the family's series
	 * @param workspace the workspace
	 * @param exemplars how exemplars are read
	 * @return the samples written
	 */
	private static int writeCounters(Series[] series, ScrapeWorkspace workspace, ExemplarScrape exemplars) {
		ChunkedOutput out = workspace.familyBuffer();
		double[] values = workspace.values;
		@Nullable Exemplar[] block = exemplars.block;
		for (int start = 0; start < series.length; start += values.length) {
			int end = Math.min(series.length, start + values.length);
			for (int i = start; i < end; i++) {
				Series each = series[i];
				values[i - start] = MeterValues.counter(each);
				workspace.touchLabels(each.labels);
			}
			for (int i = start; i < end; i++) {
				block[i - start] = (series[i] instanceof ExemplarSeries sampled)
						? sampled.exemplars.latest(exemplars.now()) : null;
			}
			for (int i = start; i < end; i++) {
				double value = values[i - start];
				MeterValues.checkCounter(value);
				Exemplar exemplar = block[i - start];
				ExemplarSlots slots = (exemplar != null && series[i] instanceof ExemplarSeries sampled)
						? sampled.exemplars : null;
				int exemplarSize = (exemplar != null && slots != null) ? ProtobufExemplars.size(exemplar) : 0;
				writeCounter(series[i], value, exemplar, slots, exemplarSize, workspace, out);
			}
		}
		return series.length;
	}

	/**
	 * Write the size of a family whose metrics' sizes do not depend on values, and its
	 * metadata. The size is worked out when the family's series change (or, for counters,
	 * their created timestamps are learned), and kept with the family.
	 * @param family the family
	 * @param series its series
	 * @param workspace the workspace
	 * @param out the output
	 */
	private static void writeHeader(Family family, Series[] series, ScrapeWorkspace workspace, ChunkedOutput out) {
		Family.ProtobufSize known = family.protobufSize;
		long size;
		if (known != null && known.series() == series) {
			size = known.size();
		}
		else {
			size = family.protobufMetadata.length;
			for (Series each : series) {
				int value = (family.kind == SeriesKind.COUNTER)
						? ProtobufWire.messageField(counterSize(each.created, 0)) : GAUGE_FIELD;
				size += ProtobufWire.messageField(workspace.encodeLabels(each.labels) + value);
			}
			family.protobufSize = new Family.ProtobufSize(series, size);
		}
		out.writeVarint(size);
		out.write(family.protobufMetadata);
	}

	private static void writeCounter(Series series, double value, @Nullable Exemplar exemplar,
			@Nullable ExemplarSlots slots, int exemplarSize, ScrapeWorkspace workspace, ChunkedOutput out) {
		long created = series.created;
		int counter = counterSize(created, exemplarSize);
		writeMetricStart(series, ProtobufWire.messageField(counter), workspace, out);
		out.write(ProtobufWire.FIELD_3_BYTES);
		out.writeVarint(counter);
		ProtobufWire.writeDouble(ProtobufWire.FIELD_1_DOUBLE, value, out);
		if (exemplar != null && slots != null) {
			out.write(ProtobufWire.FIELD_2_BYTES);
			out.writeVarint(exemplarSize);
			ProtobufExemplars.write(exemplar, slots, out);
		}
		if (created != 0) {
			out.write(ProtobufWire.FIELD_3_BYTES);
			out.writeVarint(ProtobufWire.timestampSize(created));
			ProtobufWire.writeTimestamp(created, out);
		}
	}

	/**
	 * Write gauges, maxima and info metrics (a gauge of 1 whose function is never called,
	 * as client_java writes an info metric in protobuf): the family's size, then values
	 * and labels read a block at a time.
	 * @param family the family
	 * @param series its series
	 * @param workspace the workspace
	 * @param out the output
	 * @return the samples written
	 */
	private static int writeGauges(Family family, Series[] series, ScrapeWorkspace workspace, ChunkedOutput out) {
		writeHeader(family, series, workspace, out);
		double[] values = workspace.values;
		for (int start = 0; start < series.length; start += values.length) {
			int end = Math.min(series.length, start + values.length);
			for (int i = start; i < end; i++) {
				Series each = series[i];
				values[i - start] = switch (family.kind) {
					case INFO -> 1.0;
					case MAX -> MeterValues.max(each.meter);
					default -> MeterValues.gauge(each);
				};
				workspace.touchLabels(each.labels);
			}
			for (int i = start; i < end; i++) {
				writeMetricStart(series[i], GAUGE_FIELD, workspace, out);
				out.write(ProtobufWire.FIELD_2_BYTES);
				out.writeVarint(GAUGE_SIZE);
				ProtobufWire.writeDouble(ProtobufWire.FIELD_1_DOUBLE, values[i - start], out);
			}
		}
		return series.length;
	}

	/**
	 * Write what starts a metric: its tag, its size, its labels; the labels are encoded
	 * once into the workspace, which gives their size too.
	 * @param series the series
	 * @param valueField the size of the field after the labels (gauge, counter, summary,
	 * histogram)
	 * @param workspace the workspace
	 * @param out the output
	 */
	private static void writeMetricStart(Series series, int valueField, ScrapeWorkspace workspace, ChunkedOutput out) {
		int labels = workspace.encodeLabels(series.labels);
		out.write(ProtobufWire.FIELD_4_BYTES);
		out.writeVarint(labels + valueField);
		out.write(workspace.labels, 0, labels);
	}

	/**
	 * Write summaries into the workspace's family buffer. Summaries carry no exemplars in
	 * protobuf, and a summary with neither count, sum nor quantiles is left out.
	 * @param series the family's series
	 * @param workspace the workspace
	 * @return the samples written
	 */
	private static int writeSummaries(Series[] series, ScrapeWorkspace workspace) {
		ChunkedOutput out = workspace.familyBuffer();
		SummaryValues values = workspace.summary;
		int samples = 0;
		for (Series each : series) {
			values.read(each);
			boolean hasCount = values.count >= 0;
			boolean hasSum = !Double.isNaN(values.sum);
			int quantiles = values.quantiles.length;
			if (!hasCount && !hasSum && quantiles == 0) {
				continue;
			}
			int summary = (hasCount ? 1 + ProtobufWire.varintSize(values.count) : 0)
					+ (hasSum ? ProtobufWire.DOUBLE_FIELD : 0) + quantiles * ProtobufWire.messageField(QUANTILE_SIZE);
			writeMetricStart(each, ProtobufWire.messageField(summary), workspace, out);
			out.write(ProtobufWire.FIELD_4_BYTES);
			out.writeVarint(summary);
			if (hasCount) {
				out.write(ProtobufWire.FIELD_1_VARINT);
				out.writeVarint(values.count);
			}
			if (hasSum) {
				ProtobufWire.writeDouble(ProtobufWire.FIELD_2_DOUBLE, values.sum, out);
			}
			for (ValueAtPercentile quantile : values.quantiles) {
				out.write(ProtobufWire.FIELD_3_BYTES);
				out.writeVarint(QUANTILE_SIZE);
				ProtobufWire.writeDouble(ProtobufWire.FIELD_1_DOUBLE, quantile.percentile(), out);
				ProtobufWire.writeDouble(ProtobufWire.FIELD_2_DOUBLE, values.value(quantile), out);
			}
			samples += quantiles + (hasCount ? 1 : 0) + (hasSum ? 1 : 0);
		}
		return samples;
	}

	/**
	 * Write classic histograms into the workspace's family buffer: count, sum, then the
	 * cumulative buckets with their exemplars.
	 * @param series the family's series
	 * @param workspace the workspace
	 * @param exemplars how exemplars are read, or {@code null} when none are written
	 * @return the samples written
	 */
	private static int writeHistograms(Series[] series, ScrapeWorkspace workspace, @Nullable ExemplarScrape exemplars) {
		ChunkedOutput out = workspace.familyBuffer();
		HistogramValues values = workspace.histogram;
		int samples = 0;
		for (Series each : series) {
			values.read(each);
			ExemplarSlots slots = (exemplars != null && each instanceof ExemplarSeries sampled) ? sampled.exemplars
					: null;
			readBucketExemplars(values, slots, exemplars, workspace);
			@Nullable Exemplar[] bucketExemplars = workspace.bucketExemplars;
			int[] exemplarSizes = workspace.bucketExemplarSizes;
			long count = values.count();
			boolean hasSum = !Double.isNaN(values.sum);
			int histogram = 1 + ProtobufWire.varintSize(count) + (hasSum ? ProtobufWire.DOUBLE_FIELD : 0);
			for (int i = 0; i < values.buckets; i++) {
				histogram += ProtobufWire.messageField(bucketSize(values.cumulative[i], exemplarSizes[i]));
			}
			writeMetricStart(each, ProtobufWire.messageField(histogram), workspace, out);
			out.write(ProtobufWire.FIELD_7_BYTES);
			out.writeVarint(histogram);
			out.write(ProtobufWire.FIELD_1_VARINT);
			out.writeVarint(count);
			if (hasSum) {
				ProtobufWire.writeDouble(ProtobufWire.FIELD_2_DOUBLE, values.sum, out);
			}
			for (int i = 0; i < values.buckets; i++) {
				Exemplar exemplar = bucketExemplars[i];
				out.write(ProtobufWire.FIELD_3_BYTES);
				out.writeVarint(bucketSize(values.cumulative[i], exemplarSizes[i]));
				out.write(ProtobufWire.FIELD_1_VARINT);
				out.writeVarint(values.cumulative[i]);
				ProtobufWire.writeDouble(ProtobufWire.FIELD_2_DOUBLE, values.bounds[i], out);
				if (exemplar != null && slots != null) {
					out.write(ProtobufWire.FIELD_3_BYTES);
					out.writeVarint(exemplarSizes[i]);
					ProtobufExemplars.write(exemplar, slots, out);
				}
			}
			samples += values.buckets + 1 + (hasSum ? 1 : 0);
		}
		return samples;
	}

	/**
	 * Read the exemplar of each bucket once, as client_java picks it (the newest one
	 * whose value lies in the bucket), and the size of its message, into the workspace.
	 * @param values the histogram's values
	 * @param slots its exemplars, or {@code null} when it has none
	 * @param exemplars how exemplars are read, or {@code null} when none are written
	 * @param workspace the workspace whose room they are kept in
	 */
	private static void readBucketExemplars(HistogramValues values, @Nullable ExemplarSlots slots,
			@Nullable ExemplarScrape exemplars, ScrapeWorkspace workspace) {
		workspace.ensureBuckets(values.buckets);
		double lower = Double.NEGATIVE_INFINITY;
		for (int i = 0; i < values.buckets; i++) {
			Exemplar exemplar = (slots != null && exemplars != null)
					? slots.inBucket(exemplars.now(), lower, values.bounds[i]) : null;
			workspace.bucketExemplars[i] = exemplar;
			workspace.bucketExemplarSizes[i] = (exemplar != null) ? ProtobufExemplars.size(exemplar) : 0;
			lower = values.bounds[i];
		}
	}

	/**
	 * Return the size of a {@code Bucket}.
	 * @param cumulative its cumulative count
	 * @param exemplarSize the size of its exemplar's message, 0 for none
	 * @return its size
	 */
	private static int bucketSize(long cumulative, int exemplarSize) {
		int size = 1 + ProtobufWire.varintSize(cumulative) + ProtobufWire.DOUBLE_FIELD;
		return (exemplarSize > 0) ? size + ProtobufWire.messageField(exemplarSize) : size;
	}

}
